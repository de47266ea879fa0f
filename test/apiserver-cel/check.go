package main

import (
	"fmt"
	"sort"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/openapi"
)

type expressionReport struct {
	Field      string   `json:"field"`
	Expression string   `json:"expression"`
	Errors     []string `json:"errors"`
	Warnings   []string `json:"warnings"`
	// Cost is the static worst-case estimate (cost.go), the largest over the checked kinds; nil when the expression
	// does not compile typed. The API server does not hold it to a budget: it enforces its budgets at run time.
	Cost *uint64 `json:"cost"`
	// InlinedErrors are the type errors of the expression with the variables it reads inlined, against each checked
	// kind (cost.go). Not the API server's: its TypeChecker types a variable holding an object as dyn
	// (plugin/cel/composition.go convertCelTypeToDeclType), so it cannot see a wrong field read through one.
	InlinedErrors []string `json:"inlinedErrors"`
}

type policyReport struct {
	Name         string             `json:"name"`
	Kind         string             `json:"kind"`
	APIVersion   string             `json:"apiVersion"`
	CheckedKinds []string           `json:"checkedKinds"`
	Expressions  []expressionReport `json:"expressions"`
	Errors       []string           `json:"errors"`
}

// expressionSpec is one CEL expression of a policy, with the options the API server compiles it with.
type expressionSpec struct {
	field      string
	expression string
	role       expressionRole
	accessor   plugincel.ExpressionAccessor
}

type expressionRole int

const (
	roleVariable expressionRole = iota
	roleMatchCondition
	roleValidation
	roleMessage
	roleAudit
	roleMutation
)

// policyChecker holds what every policy check needs: the base environment of the requested minor and the schemas.
type policyChecker struct {
	base    *environment.EnvSet
	schemas *schemas
}

func (c *policyChecker) check(p policy) policyReport {
	report := policyReport{Name: p.name(), Kind: p.kind, APIVersion: p.apiVersion, CheckedKinds: []string{}, Expressions: []expressionReport{}, Errors: []string{}}
	var (
		specs       []expressionSpec
		constraints *admissionregistrationv1.MatchResources
		paramKind   *admissionregistrationv1.ParamKind
		variables   []admissionregistrationv1.Variable
		conditions  []admissionregistrationv1.MatchCondition
	)
	if p.vap != nil {
		s := p.vap.Spec
		constraints, paramKind, variables, conditions = s.MatchConstraints, s.ParamKind, s.Variables, s.MatchConditions
		specs = append(specs, commonSpecs(variables, conditions)...)
		for i, v := range s.Validations {
			f := fmt.Sprintf("spec.validations[%d]", i)
			specs = append(specs, expressionSpec{f + ".expression", v.Expression, roleValidation, &validating.ValidationCondition{Expression: v.Expression}})
			if v.MessageExpression != "" {
				specs = append(specs, expressionSpec{f + ".messageExpression", v.MessageExpression, roleMessage, &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}})
			}
			if strings.ContainsAny(v.Message, "\r\n") {
				report.Errors = append(report.Errors, f+".message: must not contain line breaks")
			}
			if v.Reason != nil && !supportedReasons[*v.Reason] {
				report.Errors = append(report.Errors, fmt.Sprintf("%s.reason: %q is not one of Unauthorized, Forbidden, Invalid, RequestEntityTooLarge", f, *v.Reason))
			}
		}
		for i, a := range s.AuditAnnotations {
			specs = append(specs, expressionSpec{fmt.Sprintf("spec.auditAnnotations[%d].valueExpression", i), a.ValueExpression, roleAudit, &validating.AuditAnnotationCondition{Key: a.Key, ValueExpression: a.ValueExpression}})
		}
		if len(s.Validations) == 0 && len(s.AuditAnnotations) == 0 {
			report.Errors = append(report.Errors, "spec.validations: validations and auditAnnotations may not both be empty")
		}
	} else {
		s := p.mapV1.Spec
		constraints, paramKind, variables, conditions = s.MatchConstraints, s.ParamKind, s.Variables, s.MatchConditions
		specs = append(specs, commonSpecs(variables, conditions)...)
		for i, m := range s.Mutations {
			f := fmt.Sprintf("spec.mutations[%d]", i)
			switch m.PatchType {
			case admissionregistrationv1.PatchTypeApplyConfiguration:
				if m.ApplyConfiguration == nil || m.JSONPatch != nil {
					report.Errors = append(report.Errors, f+": patchType ApplyConfiguration needs applyConfiguration and no jsonPatch")
					continue
				}
				e := m.ApplyConfiguration.Expression
				specs = append(specs, expressionSpec{f + ".applyConfiguration.expression", e, roleMutation, &patch.ApplyConfigurationCondition{Expression: e}})
			case admissionregistrationv1.PatchTypeJSONPatch:
				if m.JSONPatch == nil || m.ApplyConfiguration != nil {
					report.Errors = append(report.Errors, f+": patchType JSONPatch needs jsonPatch and no applyConfiguration")
					continue
				}
				e := m.JSONPatch.Expression
				specs = append(specs, expressionSpec{f + ".jsonPatch.expression", e, roleMutation, &patch.JSONPatchCondition{Expression: e}})
			default:
				report.Errors = append(report.Errors, fmt.Sprintf("%s.patchType: %q is not ApplyConfiguration or JSONPatch", f, m.PatchType))
			}
		}
		if len(s.Mutations) == 0 {
			report.Errors = append(report.Errors, "spec.mutations: required: at least one mutation")
		}
		if s.ReinvocationPolicy != admissionregistrationv1.NeverReinvocationPolicy && s.ReinvocationPolicy != admissionregistrationv1.IfNeededReinvocationPolicy {
			report.Errors = append(report.Errors, fmt.Sprintf("spec.reinvocationPolicy: %q is not Never or IfNeeded", s.ReinvocationPolicy))
		}
	}
	if constraints == nil {
		report.Errors = append(report.Errors, "spec.matchConstraints: required: the API server matches no request without it")
	} else if len(constraints.ResourceRules) == 0 {
		report.Errors = append(report.Errors, "spec.matchConstraints.resourceRules: required: name the resources the policy applies to")
	}
	if p.vap != nil && p.vap.Spec.FailurePolicy != nil && !supportedFailurePolicies[*p.vap.Spec.FailurePolicy] {
		report.Errors = append(report.Errors, fmt.Sprintf("spec.failurePolicy: %q is not Fail or Ignore", *p.vap.Spec.FailurePolicy))
	}

	kinds := c.kindsToCheck(constraints)
	for _, gvk := range kinds {
		report.CheckedKinds = append(report.CheckedKinds, gvk.GroupVersion().String()+"/"+gvk.Kind)
	}
	if constraints != nil && len(constraints.ResourceRules) > 0 && len(kinds) == 0 {
		report.Errors = append(report.Errors, "spec.matchConstraints.resourceRules: no kind of the schemas matches them (wildcards and subresources are not type-checked by the API server either): the expressions were neither type-checked nor costed against a schema")
	}
	var paramGVK schema.GroupVersionKind
	if paramKind != nil {
		gv, err := schema.ParseGroupVersion(paramKind.APIVersion)
		if err != nil || paramKind.Kind == "" {
			report.Errors = append(report.Errors, fmt.Sprintf("spec.paramKind: apiVersion %q kind %q is not a kind", paramKind.APIVersion, paramKind.Kind))
		} else {
			paramGVK = gv.WithKind(paramKind.Kind)
		}
	}

	created := c.createTimeErrors(specs, paramKind != nil)
	warnings := c.typeWarnings(p, specs, constraints, paramKind, variables)
	costs, inlined, costErrors := c.costs(specs, kinds, paramGVK, paramKind != nil, variables)
	report.Errors = append(report.Errors, costErrors...)

	for i, s := range specs {
		r := expressionReport{Field: s.field, Expression: s.expression, Errors: created[i], Warnings: warnings[i], InlinedErrors: inlined[i]}
		if inlined[i] == nil {
			r.InlinedErrors = []string{}
		}
		if created[i] == nil {
			r.Errors = []string{}
		}
		if warnings[i] == nil {
			r.Warnings = []string{}
		}
		if cost, ok := costs[i]; ok {
			r.Cost = &cost
		}
		report.Expressions = append(report.Expressions, r)
	}
	return report
}

var supportedReasons = map[metav1.StatusReason]bool{
	metav1.StatusReasonUnauthorized: true, metav1.StatusReasonForbidden: true,
	metav1.StatusReasonInvalid: true, metav1.StatusReasonRequestEntityTooLarge: true,
}

var supportedFailurePolicies = map[admissionregistrationv1.FailurePolicyType]bool{
	admissionregistrationv1.Fail: true, admissionregistrationv1.Ignore: true,
}

func commonSpecs(variables []admissionregistrationv1.Variable, conditions []admissionregistrationv1.MatchCondition) []expressionSpec {
	var specs []expressionSpec
	for i, v := range variables {
		specs = append(specs, expressionSpec{fmt.Sprintf("spec.variables[%d].expression", i), v.Expression, roleVariable, &validating.Variable{Name: v.Name, Expression: v.Expression}})
	}
	for i := range conditions {
		specs = append(specs, expressionSpec{fmt.Sprintf("spec.matchConditions[%d].expression", i), conditions[i].Expression, roleMatchCondition, (*matchconditions.MatchCondition)(&conditions[i])})
	}
	return specs
}

// createTimeErrors compiles each expression as the API server's validation of a new policy does
// (pkg/apis/admissionregistration/validation in kubernetes/kubernetes): object, oldObject and params untyped (Dyn),
// the environment of new expressions (only the libraries the requested minor's compatibility version has), the
// variables stored in one composited compiler, matchConditions without variables.
func (c *policyChecker) createTimeErrors(specs []expressionSpec, hasParams bool) [][]string {
	out := make([][]string, len(specs))
	composited, err := plugincel.NewCompositedCompiler(c.base)
	if err != nil {
		for i := range out {
			out[i] = []string{"internal: " + err.Error()}
		}
		return out
	}
	stateless := plugincel.NewCompiler(c.base)
	withAuthz := plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}
	for i, s := range specs {
		if strings.TrimSpace(s.expression) == "" {
			out[i] = []string{"required: the expression is empty"}
			continue
		}
		var result plugincel.CompilationResult
		switch s.role {
		case roleVariable:
			result = composited.CompileAndStoreVariable(s.accessor.(plugincel.NamedExpressionAccessor), withAuthz, environment.NewExpressions)
		case roleMatchCondition:
			result = stateless.CompileCELExpression(s.accessor, withAuthz, environment.NewExpressions)
		case roleValidation, roleAudit:
			result = composited.CompileCELExpression(s.accessor, withAuthz, environment.NewExpressions)
		case roleMessage:
			result = composited.CompileCELExpression(s.accessor, plugincel.OptionalVariableDeclarations{HasParams: hasParams}, environment.NewExpressions)
		case roleMutation:
			opts := withAuthz
			opts.HasPatchTypes = true
			for _, e := range composited.CompileMutatingEvaluator(s.accessor, opts, environment.NewExpressions).CompilationErrors() {
				out[i] = append(out[i], e.Error())
			}
			continue
		}
		if result.Error != nil {
			out[i] = []string{result.Error.Error()}
		}
	}
	return out
}

// typeWarnings runs the apiserver's TypeChecker (the controller that writes status.typeChecking runs the same) on
// each expression but the mutations, against every kind the resourceRules name. The API server records its findings
// as warnings and still admits the policy; the helper reports them as warnings so a test can hold them to zero. A
// MutatingAdmissionPolicy is checked through a ValidatingAdmissionPolicy of the same constraints, params and
// variables (the TypeChecker takes only that type); its mutations need the Object types, which the TypeChecker's
// environment does not declare.
func (c *policyChecker) typeWarnings(p policy, specs []expressionSpec, constraints *admissionregistrationv1.MatchResources, paramKind *admissionregistrationv1.ParamKind, variables []admissionregistrationv1.Variable) [][]string {
	out := make([][]string, len(specs))
	vap := p.vap
	if vap == nil {
		vap = &admissionregistrationv1.ValidatingAdmissionPolicy{Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			MatchConstraints: constraints, ParamKind: paramKind, Variables: variables,
		}}
	}
	typeChecker := &validating.TypeChecker{SchemaResolver: c.schemas, RestMapper: c.schemas.restMapper}
	ctx := typeChecker.CreateContext(vap)
	for i, s := range specs {
		if s.role == roleMutation || strings.TrimSpace(s.expression) == "" {
			continue
		}
		for _, result := range typeChecker.CheckExpression(ctx, s.expression) {
			if text := strings.TrimSpace(result.String()); text != "" {
				out[i] = append(out[i], text)
			}
		}
	}
	return out
}

// kindsToCheck lists the kinds the resourceRules name, as the TypeChecker's (unexported) typesToCheck does: no
// wildcard groups or versions, no wildcard resources or subresources.
func (c *policyChecker) kindsToCheck(constraints *admissionregistrationv1.MatchResources) []schema.GroupVersionKind {
	if constraints == nil {
		return nil
	}
	seen := map[schema.GroupVersionKind]bool{}
	for _, rule := range constraints.ResourceRules {
		for _, group := range rule.APIGroups {
			for _, ver := range rule.APIVersions {
				if strings.Contains(group, "*") || strings.Contains(ver, "*") {
					continue
				}
				for _, resource := range rule.Resources {
					if strings.ContainsAny(resource, "*/") {
						continue
					}
					kinds, err := c.schemas.restMapper.KindsFor(schema.GroupVersionResource{Group: group, Version: ver, Resource: resource})
					if err != nil {
						continue
					}
					for _, k := range kinds {
						seen[k] = true
					}
				}
			}
		}
	}
	out := make([]schema.GroupVersionKind, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// costs estimates each expression for each checked kind (the object typed by its schema) and keeps the largest.
func (c *policyChecker) costs(specs []expressionSpec, kinds []schema.GroupVersionKind, paramGVK schema.GroupVersionKind, hasParams bool, variables []admissionregistrationv1.Variable) (map[int]uint64, map[int][]string, []string) {
	var problems []string
	var paramType *apiservercel.DeclType
	if !paramGVK.Empty() {
		if s, err := c.schemas.ResolveSchema(paramGVK); err == nil {
			paramType = common.SchemaDeclType(&openapi.Schema{Schema: s}, true)
		}
	}
	objectTypes := make([]*apiservercel.DeclType, 0, len(kinds))
	for _, gvk := range kinds {
		s, err := c.schemas.ResolveSchema(gvk)
		if err != nil {
			problems = append(problems, fmt.Sprintf("schema of %v: %v", gvk, err))
			continue
		}
		if t := common.SchemaDeclType(&openapi.Schema{Schema: s}, true); t != nil {
			objectTypes = append(objectTypes, t.MaybeAssignTypeName(strings.ReplaceAll(gvk.Group+"."+gvk.Version+"."+gvk.Kind, "-", "_")))
		}
	}
	if len(objectTypes) == 0 {
		objectTypes = append(objectTypes, nil) // untyped object: sizes unknown
	}
	out := map[int]uint64{}
	inlined := map[int][]string{}
	for _, objectType := range objectTypes {
		for _, patchTypes := range []bool{false, true} {
			tc, err := newTypedCompiler(c.base, objectType, paramType, hasParams, patchTypes)
			if err != nil {
				problems = append(problems, "internal: typed environment: "+err.Error())
				return out, inlined, problems
			}
			tc.composited.CompileAndStoreVariables(variableAccessors(variables), plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, environment.StoredExpressions)
			for i, s := range specs {
				if (s.role == roleMutation) != patchTypes || strings.TrimSpace(s.expression) == "" {
					continue
				}
				cost, issue, err := tc.estimate(s.expression)
				if issue != "" && objectType != nil {
					inlined[i] = append(inlined[i], objectType.TypeName()+": "+issue)
				}
				if err != nil {
					continue // the compile error is reported by createTimeErrors or typeWarnings
				}
				if prev, ok := out[i]; !ok || cost > prev {
					out[i] = cost
				}
			}
		}
	}
	return out, inlined, problems
}
