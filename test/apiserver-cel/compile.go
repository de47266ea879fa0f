package main

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/cel/environment"
)

// The two compile functions below build what the API server's unexported compilePolicy functions build
// (k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go and .../mutating/compilation.go at v0.37.2), from
// the same exported pieces in the same order: one CompositedCompiler on the base environment, the variables stored
// in it, the matchConditions as a matchconditions.Matcher, then the validations, messageExpressions and
// auditAnnotations (or the mutations' patchers), all compiled as StoredExpressions, the mode the API server
// evaluates stored policies in.

type validatingEvaluator struct {
	matcher     matchconditions.Matcher
	validator   validating.Validator
	validations int
	// The validator's own validation and messageExpression evaluators, run again to read the cost the API server
	// counts against RuntimeCELCostBudget (the Validator does not return it).
	validationFilter plugincel.ConditionEvaluator
	messageFilter    plugincel.ConditionEvaluator
}

// compileShared is what both policy kinds compile alike: the variables (stored in the compiler, as the API server
// does) and the match conditions.
func compileShared(base *environment.EnvSet, name string, variables []admissionregistrationv1.Variable,
	conditions []admissionregistrationv1.MatchCondition, failurePolicy *admissionregistrationv1.FailurePolicyType,
	opts plugincel.OptionalVariableDeclarations) (*plugincel.CompositedCompiler, matchconditions.Matcher, error) {
	compiler, err := plugincel.NewCompositedCompiler(base)
	if err != nil {
		return nil, nil, err
	}
	compiler.CompileAndStoreVariables(variableAccessors(variables), opts, environment.StoredExpressions)
	var matcher matchconditions.Matcher
	if len(conditions) > 0 {
		matcher = matchconditions.NewMatcher(
			compiler.CompileCondition(matchConditionAccessors(conditions), opts, environment.StoredExpressions),
			failurePolicy, "policy", "validate", name)
	}
	return compiler, matcher, nil
}

func compileValidating(p *admissionregistrationv1.ValidatingAdmissionPolicy, base *environment.EnvSet) (*validatingEvaluator, error) {
	hasParams := p.Spec.ParamKind != nil
	optionalVars := plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}
	messageVars := plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: false}
	compiler, matcher, err := compileShared(base, p.Name, p.Spec.Variables, p.Spec.MatchConditions, p.Spec.FailurePolicy, optionalVars)
	if err != nil {
		return nil, err
	}
	validations := make([]plugincel.ExpressionAccessor, len(p.Spec.Validations))
	messages := make([]plugincel.ExpressionAccessor, len(p.Spec.Validations))
	for i, v := range p.Spec.Validations {
		validations[i] = &validating.ValidationCondition{Expression: v.Expression, Message: v.Message, Reason: v.Reason}
		if v.MessageExpression != "" {
			messages[i] = &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
		}
	}
	audits := make([]plugincel.ExpressionAccessor, len(p.Spec.AuditAnnotations))
	for i, a := range p.Spec.AuditAnnotations {
		audits[i] = &validating.AuditAnnotationCondition{Key: a.Key, ValueExpression: a.ValueExpression}
	}
	// The matcher is kept out of the Validator (nil) and run first by the caller, so a result can say whether the
	// policy matched; Validator.Validate runs the same matcher the same way when it has one.
	validationFilter := compiler.CompileCondition(validations, optionalVars, environment.StoredExpressions)
	messageFilter := compiler.CompileCondition(messages, messageVars, environment.StoredExpressions)
	validator := validating.NewValidator(
		validationFilter,
		nil,
		compiler.CompileCondition(audits, optionalVars, environment.StoredExpressions),
		messageFilter,
		p.Spec.FailurePolicy,
		nil,
	)
	return &validatingEvaluator{
		matcher: matcher, validator: validator, validations: len(p.Spec.Validations),
		validationFilter: validationFilter, messageFilter: messageFilter,
	}, nil
}

type mutatingEvaluator struct {
	compiler *plugincel.CompositedCompiler
	matcher  matchconditions.Matcher
	patchers []patch.Patcher
}

func compileMutating(p *admissionregistrationv1.MutatingAdmissionPolicy, base *environment.EnvSet) (*mutatingEvaluator, error) {
	opts := plugincel.OptionalVariableDeclarations{HasParams: p.Spec.ParamKind != nil, HasAuthorizer: true}
	compiler, matcher, err := compileShared(base, p.Name, p.Spec.Variables, p.Spec.MatchConditions, p.Spec.FailurePolicy, opts)
	if err != nil {
		return nil, err
	}
	patchOpts := opts
	patchOpts.HasPatchTypes = true
	patchers := make([]patch.Patcher, len(p.Spec.Mutations))
	for i, m := range p.Spec.Mutations {
		switch m.PatchType {
		case admissionregistrationv1.PatchTypeJSONPatch:
			if m.JSONPatch != nil {
				patchers[i] = patch.NewJSONPatcher(compiler.CompileMutatingEvaluator(
					&patch.JSONPatchCondition{Expression: m.JSONPatch.Expression}, patchOpts, environment.StoredExpressions))
			}
		case admissionregistrationv1.PatchTypeApplyConfiguration:
			if m.ApplyConfiguration != nil {
				patchers[i] = patch.NewApplyConfigurationPatcher(compiler.CompileMutatingEvaluator(
					&patch.ApplyConfigurationCondition{Expression: m.ApplyConfiguration.Expression}, patchOpts, environment.StoredExpressions))
			}
		}
	}
	return &mutatingEvaluator{compiler: compiler, matcher: matcher, patchers: patchers}, nil
}

func variableAccessors(variables []admissionregistrationv1.Variable) []plugincel.NamedExpressionAccessor {
	out := make([]plugincel.NamedExpressionAccessor, len(variables))
	for i, v := range variables {
		out[i] = &validating.Variable{Name: v.Name, Expression: v.Expression}
	}
	return out
}

func matchConditionAccessors(conditions []admissionregistrationv1.MatchCondition) []plugincel.ExpressionAccessor {
	out := make([]plugincel.ExpressionAccessor, len(conditions))
	for i := range conditions {
		out[i] = (*matchconditions.MatchCondition)(&conditions[i])
	}
	return out
}
