/**
 * The cdk8s example app: `npm run synth` (cdk8s synth) runs this file and writes `dist/*.k8s.yaml`, then the
 * k8s-windows validation plugin checks every object.
 */
import { App } from 'cdk8s';
import { buildShopApp } from './app';

const app = new App();
buildShopApp(app);
app.synth();
