package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"runtime/debug"
	"strconv"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	admissionregistrationv1beta1 "k8s.io/api/admissionregistration/v1beta1"
	"k8s.io/apimachinery/pkg/util/version"
)

// request is the one JSON document read from stdin (README of this folder; test/helpers/apiserver-cel.ts types it).
type request struct {
	KubernetesVersion string                     `json:"kubernetesVersion"`
	Schemas           string                     `json:"schemas"`
	Policies          []json.RawMessage          `json:"policies"`
	Params            []map[string]any           `json:"params"`
	ParamSchemas      map[string]json.RawMessage `json:"paramSchemas"`
	Cases             []testCase                 `json:"cases"`
}

type testCase struct {
	Object    map[string]any `json:"object"`
	OldObject map[string]any `json:"oldObject"`
	Namespace *caseNamespace `json:"namespace"`
	Operation string         `json:"operation"`
}

type caseNamespace struct {
	Metadata struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
}

// policy is one decoded policy: exactly one of vap and mapV1 is set. A v1beta1 MutatingAdmissionPolicy is read as
// v1beta1 and carried as v1 (the fields are the same; decoding the v1beta1 JSON strictly as v1 proves it).
type policy struct {
	apiVersion string
	kind       string
	vap        *admissionregistrationv1.ValidatingAdmissionPolicy
	mapV1      *admissionregistrationv1.MutatingAdmissionPolicy
}

func (p *policy) name() string {
	if p.vap != nil {
		return p.vap.Name
	}
	return p.mapV1.Name
}

var minorVersion = regexp.MustCompile(`^1\.([0-9]+)$`)

// decodeRequest reads and checks the request, returning every problem at once.
func decodeRequest(data []byte) (*request, []policy, *version.Version, []string) {
	var problems []string
	var req request
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		return nil, nil, nil, []string{fmt.Sprintf("request: not the expected JSON document: %v (fields: kubernetesVersion, schemas, policies, params, paramSchemas, cases)", err)}
	}
	for i := range req.Params {
		req.Params[i] = convertNumbers(req.Params[i]).(map[string]any)
	}
	for i := range req.Cases {
		if req.Cases[i].Object != nil {
			req.Cases[i].Object = convertNumbers(req.Cases[i].Object).(map[string]any)
		}
		if req.Cases[i].OldObject != nil {
			req.Cases[i].OldObject = convertNumbers(req.Cases[i].OldObject).(map[string]any)
		}
	}
	var binary *version.Version
	if m := minorVersion.FindStringSubmatch(req.KubernetesVersion); m == nil {
		problems = append(problems, fmt.Sprintf("kubernetesVersion: %q is not a Kubernetes minor such as \"1.37\"", req.KubernetesVersion))
	} else if minor, _ := strconv.Atoi(m[1]); minor < 30 {
		problems = append(problems, fmt.Sprintf("kubernetesVersion: %q is older than 1.30, the first minor with ValidatingAdmissionPolicy v1; give 1.30 or newer", req.KubernetesVersion))
	} else if newest := libraryMinor(); newest > 0 && minor > newest {
		problems = append(problems, fmt.Sprintf("kubernetesVersion: %q is newer than the k8s.io/apiserver this helper is built on (1.%d): raise its version in test/apiserver-cel/go.mod", req.KubernetesVersion, newest))
	} else {
		binary = version.MajorMinor(1, uint(minor))
	}
	if req.Schemas == "" {
		problems = append(problems, "schemas: required: the path of data/kubernetes-api/v1.NN.json")
	}
	if len(req.Policies) == 0 {
		problems = append(problems, "policies: required: at least one ValidatingAdmissionPolicy or MutatingAdmissionPolicy")
	}
	policies := make([]policy, 0, len(req.Policies))
	seen := map[string]int{}
	for i, raw := range req.Policies {
		p, err := decodePolicy(raw)
		if err != nil {
			problems = append(problems, fmt.Sprintf("policies[%d]: %v", i, err))
			continue
		}
		if p.name() == "" {
			problems = append(problems, fmt.Sprintf("policies[%d].metadata.name: required: results name the policy", i))
		} else if j, dup := seen[p.name()]; dup {
			problems = append(problems, fmt.Sprintf("policies[%d].metadata.name: %q is also the name of policies[%d]; give each policy its own name", i, p.name(), j))
		} else {
			seen[p.name()] = i
		}
		policies = append(policies, p)
	}
	for i, param := range req.Params {
		apiVersion, _ := param["apiVersion"].(string)
		kind, _ := param["kind"].(string)
		if apiVersion == "" || kind == "" {
			problems = append(problems, fmt.Sprintf("params[%d]: apiVersion and kind are required (the policies' paramKind picks params by them)", i))
		}
	}
	for i, c := range req.Cases {
		if c.Object == nil {
			problems = append(problems, fmt.Sprintf("cases[%d].object: required", i))
		} else {
			apiVersion, _ := c.Object["apiVersion"].(string)
			kind, _ := c.Object["kind"].(string)
			if apiVersion == "" || kind == "" {
				problems = append(problems, fmt.Sprintf("cases[%d].object: apiVersion and kind are required (they choose the resource the policies match)", i))
			}
		}
		switch c.Operation {
		case "CREATE", "UPDATE":
		case "":
			problems = append(problems, fmt.Sprintf("cases[%d].operation: required: CREATE or UPDATE", i))
		default:
			problems = append(problems, fmt.Sprintf("cases[%d].operation: %q is not CREATE or UPDATE", i, c.Operation))
		}
		if c.OldObject != nil && c.Operation != "UPDATE" {
			problems = append(problems, fmt.Sprintf("cases[%d].oldObject: only an UPDATE has an old object (operation is %q)", i, c.Operation))
		}
		if c.Namespace != nil && c.Namespace.Metadata.Name == "" {
			problems = append(problems, fmt.Sprintf("cases[%d].namespace.metadata.name: required when namespace is given", i))
		} else if c.Namespace != nil && c.Object != nil {
			metadata, _ := c.Object["metadata"].(map[string]any)
			if ns, _ := metadata["namespace"].(string); ns != "" && ns != c.Namespace.Metadata.Name {
				problems = append(problems, fmt.Sprintf("cases[%d].object.metadata.namespace: %q is not namespace.metadata.name %q: give one namespace", i, ns, c.Namespace.Metadata.Name))
			}
		}
	}
	return &req, policies, binary, problems
}

// libraryMinor is the Kubernetes minor of the k8s.io/apiserver module the binary was built with (v0.37.x is 1.37),
// read from the build info so go.mod stays the one place that names it; 0 when unknown.
func libraryMinor() int {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return 0
	}
	for _, dep := range info.Deps {
		if dep.Path == "k8s.io/apiserver" {
			if m := libraryVersion.FindStringSubmatch(dep.Version); m != nil {
				minor, _ := strconv.Atoi(m[1])
				return minor
			}
		}
	}
	return 0
}

var libraryVersion = regexp.MustCompile(`^v0\.([0-9]+)\.`)

func decodePolicy(raw json.RawMessage) (policy, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return policy{}, fmt.Errorf("not a JSON object: %v", err)
	}
	p := policy{apiVersion: head.APIVersion, kind: head.Kind}
	switch {
	case head.APIVersion == "admissionregistration.k8s.io/v1" && head.Kind == "ValidatingAdmissionPolicy":
		p.vap = &admissionregistrationv1.ValidatingAdmissionPolicy{}
		if err := strictUnmarshal(raw, p.vap, head.APIVersion+" "+head.Kind); err != nil {
			return p, err
		}
		defaultValidating(p.vap)
	case head.APIVersion == "admissionregistration.k8s.io/v1" && head.Kind == "MutatingAdmissionPolicy":
		p.mapV1 = &admissionregistrationv1.MutatingAdmissionPolicy{}
		if err := strictUnmarshal(raw, p.mapV1, head.APIVersion+" "+head.Kind); err != nil {
			return p, err
		}
		defaultMutating(p.mapV1)
	case head.APIVersion == "admissionregistration.k8s.io/v1beta1" && head.Kind == "MutatingAdmissionPolicy":
		beta := &admissionregistrationv1beta1.MutatingAdmissionPolicy{}
		if err := strictUnmarshal(raw, beta, head.APIVersion+" "+head.Kind); err != nil {
			return p, err
		}
		p.mapV1 = &admissionregistrationv1.MutatingAdmissionPolicy{}
		if err := strictUnmarshal(raw, p.mapV1, "admissionregistration.k8s.io/v1 MutatingAdmissionPolicy"); err != nil {
			return p, fmt.Errorf("a v1beta1 field has no v1 counterpart: %v", err)
		}
		defaultMutating(p.mapV1)
	default:
		return p, fmt.Errorf("apiVersion %q kind %q is not admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy, admissionregistration.k8s.io/v1 MutatingAdmissionPolicy or admissionregistration.k8s.io/v1beta1 MutatingAdmissionPolicy", head.APIVersion, head.Kind)
	}
	return p, nil
}

// strictUnmarshal refuses unknown fields, as the API server's strict field validation (kubectl's default) does.
func strictUnmarshal(raw json.RawMessage, into any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("not a valid %s: %v", what, err)
	}
	return nil
}

// convertNumbers makes each JSON number an int64 when it is an integer literal, else a float64, as the API server's
// JSON decoding does (k8s.io/apimachinery/pkg/util/json): plain encoding/json would make every number a float64, and
// CEL has no overload for an int field times an int literal when the field arrives as a double.
func convertNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = convertNumbers(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = convertNumbers(e)
		}
		return x
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	default:
		return v
	}
}
