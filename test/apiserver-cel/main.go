// Command apiserver-cel judges admission policies with the Kubernetes API server's own CEL machinery
// (k8s.io/apiserver): it compiles, type-checks and costs every expression of each ValidatingAdmissionPolicy and
// MutatingAdmissionPolicy, then matches and evaluates the policies on the given objects. It reads one JSON request
// on stdin and writes one JSON response on stdout (README.md beside this file; test/helpers/apiserver-cel.ts).
// Exit status: 0 with a response, 2 with {"errors": [...]} when the request itself is wrong, 1 on an internal fault.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/admission"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	basecompatibility "k8s.io/component-base/compatibility"
	"k8s.io/klog/v2"
)

type response struct {
	KubernetesVersion    string         `json:"kubernetesVersion"`
	CompatibilityVersion string         `json:"compatibilityVersion"`
	Budgets              budgets        `json:"budgets"`
	Policies             []policyReport `json:"policies"`
	Results              []caseResult   `json:"results"`
}

type budgets struct {
	PerCallLimit                        uint64 `json:"perCallLimit"`
	RuntimeCELCostBudget                uint64 `json:"runtimeCELCostBudget"`
	RuntimeCELCostBudgetMatchConditions uint64 `json:"runtimeCELCostBudgetMatchConditions"`
}

func main() {
	// klog writes to stderr; keep it quiet so stderr carries only this program's own faults.
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	_ = klogFlags.Set("v", "0")
	_ = klogFlags.Set("logtostderr", "false")
	_ = klogFlags.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)

	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "apiserver-cel: reading stdin: %v\n", err)
		os.Exit(1)
	}
	res, problems := judge(data)
	out := json.NewEncoder(os.Stdout)
	if len(problems) > 0 {
		_ = out.Encode(map[string][]string{"errors": problems})
		os.Exit(2)
	}
	if err := out.Encode(res); err != nil {
		fmt.Fprintf(os.Stderr, "apiserver-cel: writing the response: %v\n", err)
		os.Exit(1)
	}
}

func judge(data []byte) (*response, []string) {
	req, policies, binary, problems := decodeRequest(data)
	if req == nil {
		return nil, problems
	}
	var sch *schemas
	if req.Schemas != "" {
		var schemaProblems []string
		sch, schemaProblems = loadSchemas(req.Schemas, req.ParamSchemas)
		problems = append(problems, schemaProblems...)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	// An API server of minor N compiles new expressions with the libraries of its minimum compatibility version
	// (N-1 by default: rollback safety) and stored ones with every library it has; environment.MustBaseEnvSet
	// builds both, with StrictCost, for that version.
	compat := basecompatibility.NewEffectiveVersion(binary, false, version.MajorMinor(0, 0), version.MajorMinor(0, 0)).MinCompatibilityVersion()
	base := environment.MustBaseEnvSet(compat)

	c := &policyChecker{base: base, schemas: sch}
	res := &response{
		KubernetesVersion:    req.KubernetesVersion,
		CompatibilityVersion: fmt.Sprintf("%d.%d", compat.Major(), compat.Minor()),
		Budgets: budgets{
			PerCallLimit:                        celconfig.PerCallLimit,
			RuntimeCELCostBudget:                celconfig.RuntimeCELCostBudget,
			RuntimeCELCostBudgetMatchConditions: celconfig.RuntimeCELCostBudgetMatchConditions,
		},
		Policies: make([]policyReport, 0, len(policies)),
		Results:  []caseResult{},
	}
	compiled := make([]compiledPolicy, 0, len(policies))
	for _, p := range policies {
		report := c.check(p)
		cp := compiledPolicy{policy: p}
		var err error
		if p.vap != nil {
			cp.validating, err = compileValidating(p.vap, base)
			cp.paramGVK = paramGVKOf(p.vap.Spec.ParamKind)
		} else {
			cp.mutating, err = compileMutating(p.mapV1, base)
			cp.paramGVK = paramGVKOf(p.mapV1.Spec.ParamKind)
		}
		if err != nil {
			report.Errors = append(report.Errors, "internal: compiling for evaluation: "+err.Error())
		} else {
			compiled = append(compiled, cp)
		}
		res.Policies = append(res.Policies, report)
	}
	params := make([]*unstructured.Unstructured, len(req.Params))
	for i, p := range req.Params {
		params[i] = &unstructured.Unstructured{Object: p}
	}
	e := &evaluator{schemas: sch, params: params, objects: admission.NewObjectInterfacesFromScheme(runtime.NewScheme())}
	for i, tc := range req.Cases {
		res.Results = append(res.Results, e.run(i, tc, compiled)...)
	}
	return res, nil
}

func paramGVKOf(p *admissionregistrationv1.ParamKind) schema.GroupVersionKind {
	if p == nil {
		return schema.GroupVersionKind{}
	}
	gv, err := schema.ParseGroupVersion(p.APIVersion)
	if err != nil {
		return schema.GroupVersionKind{}
	}
	return gv.WithKind(p.Kind)
}
