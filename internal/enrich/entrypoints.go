package enrich

import (
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// Entry points are scored from what the graph knows of a callable: its
// name, its signature, the decorators or annotations at the head of its
// source, whether it is exported, and its callers and callees.
//
// Frameworks are recognised by the shape they force on a handler rather
// than by the registration call: `mux.HandleFunc("/x", h)` only accepts an
// h of type func(http.ResponseWriter, *http.Request), cobra's RunE a
// func(*cobra.Command, []string), Express a (req, res[, next]) function,
// so the signature finds the handler wherever and however it is
// registered. Decorators and annotations (Flask/FastAPI routes, Celery
// tasks, Spring mappings and listeners, NestJS routes) are read off the
// symbol's source. Test functions are never entry points.

// Entry-point score parts.
const (
	scoreMain       = 3.0 // main functions
	scoreHandler    = 3.0 // handler signature, route decorator or annotation
	scoreConsumer   = 2.5 // message consumers, scheduled jobs, CLI commands by decorator
	scoreInit       = 2.0 // Go init
	scoreEventName  = 1.5 // consume*, on*, handle*
	scoreRootAPI    = 1.0 // exported, with callees, no callers
	scoreRootLocal  = 0.5 // not exported, with callees, no callers
	penaltyUtility  = -2.0
	minEntryScore   = 1.0
	notAnEntryPoint = -100.0
)

// routeMarks are decorator or annotation names (their last dotted part)
// that make a request handler; consumerMarks those of consumers, jobs and
// commands; testMarks those of tests.
var (
	routeMarks = map[string]bool{
		"route": true, "get": true, "post": true, "put": true, "delete": true, "patch": true, "head": true,
		"options": true, "websocket": true, "api_route": true, "api_view": true, "view_config": true,
		"GetMapping": true, "PostMapping": true, "PutMapping": true, "DeleteMapping": true, "PatchMapping": true,
		"RequestMapping": true, "GET": true, "POST": true, "PUT": true, "DELETE": true, "PATCH": true, "Path": true,
		"Get": true, "Post": true, "Put": true, "Delete": true, "Patch": true, "All": true,
	}
	consumerMarks = map[string]bool{
		"task": true, "shared_task": true, "periodic_task": true, "receiver": true, "command": true,
		"subscriber": true, "consumer": true, "listener": true, "on_event": true, "cron": true,
		"Scheduled": true, "KafkaListener": true, "RabbitListener": true, "JmsListener": true,
		"EventListener": true, "SqsListener": true, "StreamListener": true, "MessagePattern": true,
		"EventPattern": true, "Cron": true, "Command": true,
	}
	testMarks = map[string]bool{
		"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true,
		"BeforeEach": true, "AfterEach": true, "BeforeAll": true, "AfterAll": true, "Before": true,
		"After": true, "BeforeClass": true, "AfterClass": true, "fixture": true,
	}
	utilityWords = map[string]bool{"get": true, "is": true, "to": true, "format": true, "has": true,
		"set": true, "string": true, "equals": true, "hash": true, "compare": true, "len": true}
)

// entryScore scores node i as an entry point; below minEntryScore it is
// not one. framework reports a score from a main function, a handler or a
// decorator, which makes a node an entry point even when it has callers.
func entryScore(v *view, i int32, callers int) (score float64, framework bool) {
	n := &v.nodes[i]
	if !n.Kind.IsCallable() || v.test[i] || isTestName(n.Name) {
		return notAnEntryPoint, false
	}
	marks := leadingAnnotations(n.Content)
	for _, m := range marks {
		if testMarks[lastPart(m)] {
			return notAnEntryPoint, false
		}
	}
	switch {
	case isMain(n):
		score, framework = scoreMain, true
	case n.Language == "go" && n.Kind == graph.KindFunction && n.Name == "init":
		score, framework = scoreInit, true
	}
	for _, m := range marks {
		switch last := lastPart(m); {
		case routeMarks[last]:
			score, framework = max(score, scoreHandler), true
		case consumerMarks[last]:
			score, framework = max(score, scoreConsumer), true
		}
	}
	if handlerSignature(n) {
		score, framework = max(score, scoreHandler), true
	}
	if eventName(n.Name) {
		score += scoreEventName
	}
	if callers == 0 {
		if n.Exported {
			score += scoreRootAPI
		} else {
			score += scoreRootLocal
		}
	}
	words := nameWords(n.Name)
	if !framework && len(words) > 0 && utilityWords[words[0]] {
		score += penaltyUtility
	}
	return score, framework
}

func isMain(n *graph.Node) bool {
	if n.Name != "main" {
		return false
	}
	if n.Language == "java" {
		return n.Kind == graph.KindMethod && strings.Contains(n.Signature, "static") && strings.Contains(n.Signature, "String")
	}
	return n.Kind == graph.KindFunction
}

// isTestName: Go Test/Benchmark/Fuzz/Example functions, pytest and
// unittest test functions.
func isTestName(name string) bool {
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(name, p) && (len(name) == len(p) || name[len(p)] == '_' || isUpper(name[len(p)])) {
			return true
		}
	}
	return strings.HasPrefix(name, "test_") || name == "test" || name == "setUp" || name == "tearDown"
}

func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }

// eventName: consume*, handle*, on* (onMessage, on_message).
func eventName(name string) bool {
	lower := strings.ToLower(name)
	if strings.HasPrefix(lower, "consume") || strings.HasPrefix(lower, "handle") {
		return true
	}
	return len(name) > 2 && (name[:2] == "on" || name[:2] == "On") && (isUpper(name[2]) || name[2] == '_')
}

// handlerSignature recognises request and command handlers by their
// parameters.
func handlerSignature(n *graph.Node) bool {
	sig := n.Signature
	switch n.Language {
	case "go":
		return strings.Contains(sig, "http.ResponseWriter") && strings.Contains(sig, "*http.Request") ||
			strings.Contains(sig, "*gin.Context") || strings.Contains(sig, "echo.Context") ||
			strings.Contains(sig, "*fiber.Ctx") ||
			strings.Contains(sig, "*cobra.Command") && strings.Contains(sig, "[]string")
	case "javascript", "typescript":
		ps := paramNames(sig)
		if len(ps) < 2 || len(ps) > 3 {
			return false
		}
		a, b := ps[0], ps[1]
		return (a == "req" || a == "request") && (b == "res" || b == "response" || b == "reply") ||
			a == "ctx" && b == "next" && len(ps) == 2
	case "python":
		ps := paramNames(sig)
		if len(ps) > 0 && ps[0] == "self" {
			ps = ps[1:]
		}
		return len(ps) > 0 && ps[0] == "request" &&
			(strings.HasSuffix(n.FilePath, "views.py") || strings.Contains("/"+n.FilePath, "/views/"))
	}
	return false
}

// paramNames reads the parameter names of a one-line signature: the words
// before any type annotation, default or type, between the first '(' and
// its ')'.
func paramNames(sig string) []string {
	open := strings.IndexByte(sig, '(')
	if open < 0 {
		return nil
	}
	depth, end := 0, -1
	for i := open; i < len(sig) && end < 0; i++ {
		switch sig[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
			if depth == 0 {
				end = i
			}
		}
	}
	if end < 0 {
		return nil
	}
	var out []string
	for _, p := range splitTop(sig[open+1 : end]) {
		p = strings.TrimSpace(p)
		p = strings.TrimLeft(p, "*.")
		name := p
		if k := strings.IndexAny(p, ":= ?"); k >= 0 {
			name = p[:k]
		}
		if name != "" {
			out = append(out, name)
		}
	}
	return out
}

// splitTop splits at commas outside brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

// javaModifiers may stand between or before annotations.
var javaModifiers = []string{"public ", "protected ", "private ", "static ", "final ", "abstract ", "synchronized "}

// leadingAnnotations returns the decorator or annotation names written at
// the head of a symbol's source, without arguments: "app.route",
// "GetMapping". Java modifiers between annotations are skipped.
func leadingAnnotations(src string) []string {
	var out []string
	i := 0
	for {
		i += len(src[i:]) - len(strings.TrimLeft(src[i:], " \t\r\n"))
		if i >= len(src) {
			return out
		}
		if src[i] != '@' {
			mod := ""
			for _, m := range javaModifiers {
				if strings.HasPrefix(src[i:], m) {
					mod = m
				}
			}
			if mod == "" || !strings.Contains(src[i:], "@") {
				return out
			}
			i += len(mod)
			continue
		}
		j := i + 1
		for j < len(src) && (isWordByte(src[j]) || src[j] == '.') {
			j++
		}
		if j == i+1 {
			return out
		}
		out = append(out, src[i+1:j])
		i = skipParens(src, j)
	}
}

// skipParens returns the position after a balanced (...) group starting at
// i, or i when there is none.
func skipParens(src string, i int) int {
	if i >= len(src) || src[i] != '(' {
		return i
	}
	depth := 0
	for k := i; k < len(src); k++ {
		switch src[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k + 1
			}
		}
	}
	return len(src)
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func lastPart(name string) string {
	if k := strings.LastIndexByte(name, '.'); k >= 0 {
		return name[k+1:]
	}
	return name
}
