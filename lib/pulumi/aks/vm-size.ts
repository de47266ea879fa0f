/** Moved to the core (the rule modules use it): re-exported for the components. */
export * from '../../core/cloud/aks-vm-size';
