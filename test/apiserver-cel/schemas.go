package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

const definitionsRefPrefix = "#/definitions/"

// schemas holds the swagger definitions of one Kubernetes minor (data/kubernetes-api/v1.NN.json) and the parameter
// schemas of the request: the SchemaResolver the TypeChecker reads, the RESTMapper it maps resourceRules with, and
// the TypeConverter the ApplyConfiguration patcher merges with.
type schemas struct {
	definitions map[string]*spec.Schema
	gvkToName   map[schema.GroupVersionKind]string
	params      map[schema.GroupVersionKind]*spec.Schema
	restMapper  *meta.DefaultRESTMapper
	converter   managedfields.TypeConverter
}

var _ resolver.SchemaResolver = (*schemas)(nil)

func loadSchemas(path string, paramSchemas map[string]json.RawMessage) (*schemas, []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, []string{fmt.Sprintf("schemas: cannot read %q: %v (give the path of data/kubernetes-api/v1.NN.json)", path, err)}
	}
	var file struct {
		Definitions map[string]*spec.Schema `json:"definitions"`
	}
	if err := json.Unmarshal(data, &file); err != nil || len(file.Definitions) == 0 {
		return nil, []string{fmt.Sprintf("schemas: %q is not a swagger document with definitions (%v)", path, err)}
	}
	s := &schemas{
		definitions: file.Definitions,
		gvkToName:   map[schema.GroupVersionKind]string{},
		params:      map[schema.GroupVersionKind]*spec.Schema{},
		restMapper:  meta.NewDefaultRESTMapper(nil),
	}
	names := make([]string, 0, len(file.Definitions))
	for name := range file.Definitions {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, gvk := range gvksOf(file.Definitions[name]) {
			// Every kind is mapped as namespaced: the mapper only turns resourceRules into kinds here, and the
			// scope of a request comes from its case (the namespace given, or the object's metadata.namespace).
			s.gvkToName[gvk] = name
			s.restMapper.Add(gvk, meta.RESTScopeNamespace)
		}
	}
	var problems []string
	for key, raw := range paramSchemas {
		i := strings.LastIndex(key, "/")
		gv, kind := key[:max(i, 0)], key[i+1:]
		parsed, err := schema.ParseGroupVersion(gv)
		if i <= 0 || err != nil || kind == "" || parsed.Version == "" {
			problems = append(problems, fmt.Sprintf("paramSchemas: key %q is not \"<apiVersion>/<kind>\" of a paramKind, such as \"k8s-windows.io/v1alpha1/ClusterFacts\"", key))
			continue
		}
		var sch spec.Schema
		if err := json.Unmarshal(raw, &sch); err != nil {
			problems = append(problems, fmt.Sprintf("paramSchemas[%q]: not an OpenAPI v3 schema: %v", key, err))
			continue
		}
		gvk := parsed.WithKind(kind)
		s.params[gvk] = &sch
		s.restMapper.Add(gvk, meta.RESTScopeNamespace)
	}
	converter, err := managedfields.NewTypeConverter(file.Definitions, false)
	if err != nil {
		problems = append(problems, fmt.Sprintf("schemas: %q cannot be read by structured-merge-diff: %v", path, err))
	}
	s.converter = converter
	return s, problems
}

// gvksOf reads x-kubernetes-group-version-kind, which the upstream definitions carry for every served kind.
func gvksOf(s *spec.Schema) []schema.GroupVersionKind {
	raw, ok := s.Extensions["x-kubernetes-group-version-kind"].([]any)
	if !ok {
		return nil
	}
	var gvks []schema.GroupVersionKind
	for _, item := range raw {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		group, _ := m["group"].(string)
		version, _ := m["version"].(string)
		kind, _ := m["kind"].(string)
		if version != "" && kind != "" {
			gvks = append(gvks, schema.GroupVersionKind{Group: group, Version: version, Kind: kind})
		}
	}
	return gvks
}

// ResolveSchema is the SchemaResolver of the TypeChecker: the definition of the kind with every $ref replaced by the
// apiserver's own resolver.PopulateRefs, as its DefinitionsSchemaResolver does for the built-in definitions.
func (s *schemas) ResolveSchema(gvk schema.GroupVersionKind) (*spec.Schema, error) {
	if p, ok := s.params[gvk]; ok {
		return p, nil
	}
	name, ok := s.gvkToName[gvk]
	if !ok {
		return nil, fmt.Errorf("cannot resolve %v: %w", gvk, resolver.ErrSchemaNotFound)
	}
	return resolver.PopulateRefs(func(ref string) (*spec.Schema, bool) {
		def, ok := s.definitions[strings.TrimPrefix(ref, definitionsRefPrefix)]
		return def, ok
	}, definitionsRefPrefix+name)
}

// resourceFor maps a kind to its resource the way the API server's discovery names it (lower-case plural). A kind
// the schemas lack (a custom resource) gets the same guess, so policies of built-in kinds simply do not match it.
func (s *schemas) resourceFor(gvk schema.GroupVersionKind) schema.GroupVersionResource {
	if mapping, err := s.restMapper.RESTMapping(gvk.GroupKind(), gvk.Version); err == nil {
		return mapping.Resource
	}
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	return plural
}
