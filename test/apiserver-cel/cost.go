package main

import (
	"fmt"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"

	"k8s.io/apimachinery/pkg/util/version"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
	"k8s.io/apiserver/pkg/cel/mutation"
)

// The API server enforces its CEL budgets while it evaluates (k8s.io/apiserver/pkg/apis/cel, v0.37.2: PerCallLimit
// per expression, RuntimeCELCostBudget per policy evaluation, RuntimeCELCostBudgetMatchConditions for the
// matchConditions); it does not estimate a policy's cost when the policy is created (it does for CRD rules). The
// helper reports each expression's static worst case anyway, with the apiserver's cost model
// (library.CostEstimator) and the sizes the schemas imply (lists and strings as long as a 3 MiB request allows,
// common.SchemaDeclType): comparable between expressions, but far above the runtime budgets for any iteration over
// containers, since the upstream schemas bound no list and no string. The evaluation of each case reports the
// cost the API server actually counts.

// typedCompiler compiles expressions with object, oldObject and params typed by their schemas, in the variables'
// composition environment, keeping each variable's checked AST so its uses can be inlined for the estimate.
type typedCompiler struct {
	composited *plugincel.CompositedCompiler
	roots      map[string]*apiservercel.DeclType
	variables  map[string]*cel.Ast
	order      []string
}

// typedEnvSet declares the variables an admission expression sees, as the TypeChecker's (unexported) buildEnvSet
// does, on the base environment of the requested minor; hasPatchTypes adds what a mutation expression sees (the
// Object types and jsonPatch library), as the compiler's (unexported) hasPatchTypes options do.
func typedEnvSet(base *environment.EnvSet, object, params *apiservercel.DeclType, hasParams, hasPatchTypes bool) (*environment.EnvSet, error) {
	requestType := plugincel.BuildRequestType()
	namespaceType := plugincel.BuildNamespaceType()
	declTypes := []*apiservercel.DeclType{namespaceType, requestType}
	objectType := cel.DynType
	if object != nil {
		declTypes = append(declTypes, object)
		objectType = object.CelType()
	}
	opts := []cel.EnvOption{
		cel.Variable(plugincel.NamespaceVarName, namespaceType.CelType()),
		cel.Variable(plugincel.RequestVarName, requestType.CelType()),
		cel.Variable(plugincel.ObjectVarName, objectType),
		cel.Variable(plugincel.OldObjectVarName, objectType),
		cel.Variable(plugincel.AuthorizerVarName, library.AuthorizerType),
		cel.Variable(plugincel.RequestResourceAuthorizerVarName, library.ResourceCheckType),
	}
	if hasParams {
		paramsType := cel.DynType
		if params != nil {
			declTypes = append(declTypes, params)
			paramsType = params.CelType()
		}
		opts = append(opts, cel.Variable(plugincel.ParamsVarName, paramsType))
	}
	envSet, err := base.Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions:        opts,
		DeclTypes:         declTypes,
	})
	if err != nil || !hasPatchTypes {
		return envSet, err
	}
	return envSet.Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions: []cel.EnvOption{
			common.ResolverEnvOption(&mutation.DynamicTypeResolver{}),
			environment.UnversionedLib(library.JSONPatch),
		},
	})
}

func newTypedCompiler(base *environment.EnvSet, object, params *apiservercel.DeclType, hasParams, hasPatchTypes bool) (*typedCompiler, error) {
	envSet, err := typedEnvSet(base, object, params, hasParams, hasPatchTypes)
	if err != nil {
		return nil, err
	}
	composited, err := plugincel.NewCompositedCompilerForTypeChecking(envSet)
	if err != nil {
		return nil, err
	}
	tc := &typedCompiler{
		composited: composited,
		roots:      map[string]*apiservercel.DeclType{},
		variables:  map[string]*cel.Ast{},
	}
	if object != nil {
		tc.roots[plugincel.ObjectVarName] = object
		tc.roots[plugincel.OldObjectVarName] = object
	}
	if params != nil {
		tc.roots[plugincel.ParamsVarName] = params
	}
	composited.Compiler = (*variableRecorder)(tc)
	return tc, nil
}

// variableRecorder is the Compiler the composition calls for each variable: it records the variable's output type
// (so later expressions see variables.<name> typed) and its AST.
type variableRecorder typedCompiler

func (r *variableRecorder) CompileCELExpression(accessor plugincel.ExpressionAccessor, _ plugincel.OptionalVariableDeclarations, mode environment.Type) plugincel.CompilationResult {
	tc := (*typedCompiler)(r)
	ast, _, err := tc.compile(accessor.GetExpression(), mode)
	if err != nil {
		return plugincel.CompilationResult{Error: &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: err.Error()}}
	}
	if named, ok := accessor.(plugincel.NamedExpressionAccessor); ok {
		tc.variables[named.GetName()] = ast
		tc.order = append(tc.order, named.GetName())
	}
	return plugincel.CompilationResult{OutputType: ast.OutputType(), ExpressionAccessor: accessor}
}

func (tc *typedCompiler) compile(expression string, mode environment.Type) (*cel.Ast, string, error) {
	env, err := tc.composited.Env(mode)
	if err != nil {
		return nil, "", err
	}
	ast, issues := env.Compile(expression)
	if issues != nil && issues.Err() != nil {
		return nil, "", issues.Err()
	}
	inlined, issue := tc.inline(env, ast)
	return inlined, issue, nil
}

// inline replaces each variables.<name> the expression uses by the variable's own (already inlined) AST, so the
// estimate counts the variable's cost and knows the size of what it holds. The API server evaluates a variable once
// per request and caches it, so an expression that uses one variable twice is counted twice: an overestimate.
// The inlined expression is type-checked again, typed through the variables (which the API server's TypeChecker
// types as dyn when they hold an object): its first error is returned, with the expression as given.
func (tc *typedCompiler) inline(env *cel.Env, ast *cel.Ast) (*cel.Ast, string) {
	if len(tc.order) == 0 {
		return ast, ""
	}
	inlines := make([]*cel.InlineVariable, 0, len(tc.order))
	for _, name := range tc.order {
		inlines = append(inlines, cel.NewInlineVariable(plugincel.VariableVarName+"."+name, tc.variables[name]))
	}
	optimizer, err := cel.NewStaticOptimizer(cel.NewInliningOptimizer(inlines...))
	if err != nil {
		return ast, ""
	}
	optimized, issues := optimizer.Optimize(env, ast)
	if issues != nil && issues.Err() != nil {
		return ast, strings.SplitN(issues.Err().Error(), "\n", 2)[0]
	}
	return optimized, ""
}

// estimate is the worst-case cost of one expression (its Max; the API server's budgets are worst-case too).
func (tc *typedCompiler) estimate(expression string) (uint64, string, error) {
	env, err := tc.composited.Env(environment.StoredExpressions)
	if err != nil {
		return 0, "", err
	}
	ast, issue, err := tc.compile(expression, environment.StoredExpressions)
	if err != nil {
		return 0, "", err
	}
	cost, err := env.EstimateCost(ast, &library.CostEstimator{SizeEstimator: &schemaSizes{roots: tc.roots}})
	if err != nil {
		return 0, issue, fmt.Errorf("cost estimation failed: %w", err)
	}
	return cost.Max, issue, nil
}

// schemaSizes answers the estimator's size questions from the schemas' DeclTypes: the largest list, map or string
// a request can hold at the path (apiextensions-apiserver has the same walk for CRD rules, unexported there).
type schemaSizes struct {
	roots map[string]*apiservercel.DeclType
}

func (s *schemaSizes) EstimateSize(node checker.AstNode) *checker.SizeEstimate {
	path := node.Path()
	if len(path) == 0 {
		return nil
	}
	t, ok := s.roots[path[0]]
	if !ok {
		return nil
	}
	for _, step := range path[1:] {
		switch step {
		case "@items", "@values":
			t = t.ElemType
		case "@keys":
			t = t.KeyType
		default:
			field, found := t.Fields[step]
			if !found {
				return nil
			}
			t = field.Type
		}
		if t == nil {
			return nil
		}
	}
	if t.MaxElements < 0 {
		return nil
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(t.MaxElements)}
}

func (s *schemaSizes) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}
