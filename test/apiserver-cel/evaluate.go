package main

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

type caseResult struct {
	Case       int         `json:"case"`
	Policy     string      `json:"policy"`
	Param      string      `json:"param,omitempty"`
	Matched    bool        `json:"matched"`
	Violations []violation `json:"violations"`
	Error      string      `json:"error,omitempty"`
	// Cost is what the API server counts against RuntimeCELCostBudget for the validations and their
	// messageExpressions on this object (ValidatingAdmissionPolicy only).
	Cost    *int64         `json:"cost,omitempty"`
	Patched map[string]any `json:"patched,omitempty"`
}

type violation struct {
	Validation int    `json:"validation"`
	Message    string `json:"message"`
	Reason     string `json:"reason"`
}

// compiledPolicy is a policy as the API server holds it at run time.
type compiledPolicy struct {
	policy     policy
	validating *validatingEvaluator
	mutating   *mutatingEvaluator
	paramGVK   schema.GroupVersionKind
}

// noAuthorizer answers every authorizer check of an expression with no opinion: the helper has no cluster.
type noAuthorizer struct{}

func (noAuthorizer) Authorize(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionNoOpinion, "the apiserver-cel test helper has no authorizer", nil
}

type evaluator struct {
	schemas *schemas
	params  []*unstructured.Unstructured
	objects admission.ObjectInterfaces
}

func (e *evaluator) run(i int, c testCase, policies []compiledPolicy) []caseResult {
	results := make([]caseResult, 0, len(policies))
	fail := func(message string) []caseResult {
		for _, p := range policies {
			results = append(results, caseResult{Case: i, Policy: p.policy.name(), Violations: []violation{}, Error: message})
		}
		return results
	}
	object := (&unstructured.Unstructured{Object: c.Object}).DeepCopy()
	gvk := object.GroupVersionKind()
	gvr := e.schemas.resourceFor(gvk)
	// The namespace of the request: the case's, else the object's; none makes the request cluster-scoped, where
	// namespaceSelector does not apply and namespaceObject is null.
	nsName := object.GetNamespace()
	var nsLabels map[string]string
	if c.Namespace != nil {
		nsName, nsLabels = c.Namespace.Metadata.Name, c.Namespace.Metadata.Labels
		object.SetNamespace(nsName) // decodeRequest refused a different one
	}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	var namespace *corev1.Namespace
	if nsName != "" {
		labels := map[string]string{}
		for k, v := range nsLabels {
			labels[k] = v
		}
		// The API server sets this label on every namespace (NamespaceDefaultLabelName).
		labels[corev1.LabelMetadataName] = nsName
		namespace = &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: nsName, Labels: labels}}
		if err := indexer.Add(namespace); err != nil {
			return fail("internal: " + err.Error())
		}
	}
	var old runtime.Object
	if c.Operation == "UPDATE" {
		oldObject := object.DeepCopy()
		if c.OldObject != nil {
			oldObject = (&unstructured.Unstructured{Object: c.OldObject}).DeepCopy()
		}
		old = oldObject
	}
	matcher := generic.NewPolicyMatcher(matching.NewMatcher(corev1listers.NewNamespaceLister(indexer), nil))
	userInfo := &user.DefaultInfo{Name: "apiserver-cel"}

	for _, p := range policies {
		attrs := admission.NewAttributesRecord(object.DeepCopy(), old, gvk, nsName, object.GetName(), gvr, "",
			admission.Operation(c.Operation), nil, false, userInfo)
		var accessor generic.PolicyAccessor
		if p.validating != nil {
			accessor = validating.NewValidatingAdmissionPolicyAccessor(p.policy.vap)
		} else {
			accessor = mutating.NewMutatingAdmissionPolicyAccessor(p.policy.mapV1)
		}
		base := caseResult{Case: i, Policy: p.policy.name(), Violations: []violation{}}
		matches, matchedGVR, matchedGVK, err := matcher.DefinitionMatches(attrs, e.objects, accessor)
		if err != nil {
			base.Error = "matchConstraints: " + err.Error()
			results = append(results, base)
			continue
		}
		if !matches {
			results = append(results, base)
			continue
		}
		params, missing := e.paramsFor(p)
		if missing != "" {
			base.Matched = true
			base.Error = missing
			results = append(results, base)
			continue
		}
		for _, param := range params {
			r := base
			r.Violations = []violation{}
			var versionedParams runtime.Object
			if param != nil {
				r.Param = param.GetName()
				versionedParams = param
			}
			versioned, err := admission.NewVersionedAttributes(attrs, matchedGVK, e.objects)
			if err != nil {
				r.Error = "internal: " + err.Error()
				results = append(results, r)
				continue
			}
			if p.validating != nil {
				e.validate(&r, p.validating, versioned, matchedGVR, versionedParams, namespace)
			} else {
				e.mutate(&r, p.mutating, versioned, matchedGVR, versionedParams, namespace)
			}
			results = append(results, r)
		}
	}
	return results
}

// paramsFor lists the params of the policy's paramKind ([nil] for a policy without one), or says why there are none.
func (e *evaluator) paramsFor(p compiledPolicy) ([]*unstructured.Unstructured, string) {
	if p.paramGVK.Empty() {
		return []*unstructured.Unstructured{nil}, ""
	}
	var out []*unstructured.Unstructured
	for _, param := range e.params {
		if param.GroupVersionKind() == p.paramGVK {
			out = append(out, param)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("params: no object of the paramKind %s; a binding's paramRef.parameterNotFoundAction decides what the API server does then (Deny refuses the request, Allow skips the policy)", p.paramGVK)
	}
	return out, ""
}

func (e *evaluator) validate(r *caseResult, v *validatingEvaluator, versioned *admission.VersionedAttributes, gvr schema.GroupVersionResource, params runtime.Object, namespace *corev1.Namespace) {
	ctx := context.Background()
	if v.matcher != nil {
		m := v.matcher.Match(ctx, versioned, params, noAuthorizer{})
		if m.Error != nil {
			r.Error = "matchConditions: " + m.Error.Error()
			return
		}
		if !m.Matches {
			return
		}
	}
	r.Matched = true
	result := v.validator.Validate(ctx, gvr, versioned, params, namespace, celconfig.RuntimeCELCostBudget, noAuthorizer{})
	var errs []string
	for i, d := range result.Decisions {
		switch d.Evaluation {
		case validating.EvalDeny:
			r.Violations = append(r.Violations, violation{Validation: i, Message: d.Message, Reason: string(d.Reason)})
		case validating.EvalError:
			if len(result.Decisions) == v.validations {
				errs = append(errs, fmt.Sprintf("spec.validations[%d]: %s", i, d.Message))
			} else { // one decision for the whole policy
				errs = append(errs, d.Message)
			}
		case validating.EvalAdmit:
		}
	}
	for _, a := range result.AuditAnnotations {
		if a.Error != "" {
			errs = append(errs, fmt.Sprintf("auditAnnotations %q: %s", a.Key, a.Error))
		}
	}
	r.Error = strings.Join(errs, "; ")
	r.Cost = runtimeCost(ctx, v, versioned, gvr, params, namespace)
}

// runtimeCost evaluates the validations and messageExpressions as Validator.Validate does and returns the budget
// they used, or nil when the evaluation stopped (the error is in the result already).
func runtimeCost(ctx context.Context, v *validatingEvaluator, versioned *admission.VersionedAttributes, gvr schema.GroupVersionResource, params runtime.Object, namespace *corev1.Namespace) *int64 {
	request := plugincel.CreateAdmissionRequest(versioned.Attributes, metav1.GroupVersionResource(gvr), metav1.GroupVersionKind(versioned.VersionedKind))
	ns := plugincel.CreateNamespaceObject(namespace)
	budget := int64(celconfig.RuntimeCELCostBudget)
	_, remaining, err := v.validationFilter.ForInput(ctx, versioned, request, plugincel.OptionalVariableBindings{VersionedParams: params, Authorizer: noAuthorizer{}}, ns, budget)
	if err != nil {
		return nil
	}
	_, remaining, err = v.messageFilter.ForInput(ctx, versioned, request, plugincel.OptionalVariableBindings{VersionedParams: params}, ns, remaining)
	if err != nil {
		return nil
	}
	cost := budget - remaining
	return &cost
}

func (e *evaluator) mutate(r *caseResult, m *mutatingEvaluator, versioned *admission.VersionedAttributes, gvr schema.GroupVersionResource, params runtime.Object, namespace *corev1.Namespace) {
	ctx := m.compiler.CreateContext(context.Background())
	if m.matcher != nil {
		res := m.matcher.Match(ctx, versioned, params, noAuthorizer{})
		if res.Error != nil {
			r.Error = "matchConditions: " + res.Error.Error()
			return
		}
		if !res.Matches {
			return
		}
	}
	r.Matched = true
	for i, patcher := range m.patchers {
		if patcher == nil {
			continue
		}
		patched, err := patcher.Patch(ctx, patch.Request{
			MatchedResource:     gvr,
			VersionedAttributes: versioned,
			ObjectInterfaces:    e.objects,
			OptionalVariables:   plugincel.OptionalVariableBindings{VersionedParams: params, Authorizer: noAuthorizer{}},
			Namespace:           namespace,
			TypeConverter:       e.schemas.converter,
		}, celconfig.RuntimeCELCostBudget)
		if err != nil {
			r.Error = fmt.Sprintf("spec.mutations[%d]: %v", i, err)
			return
		}
		versioned.UpdateObject(patched)
	}
	out, err := runtime.DefaultUnstructuredConverter.ToUnstructured(versioned.VersionedObject.Object())
	if err != nil {
		r.Error = "internal: " + err.Error()
		return
	}
	r.Patched = out
}
