package typescript

import "strings"

// globals are the names every JavaScript environment (ECMAScript, Node.js,
// browsers, test runners) provides, values and types alike. A file that
// declares or imports one of these names uses its own; otherwise the name
// is external and a call through it is never guessed at.
var globals = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`
		globalThis undefined NaN Infinity arguments eval isFinite isNaN parseFloat parseInt
		decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape
		Object Function Boolean Symbol Error AggregateError EvalError RangeError ReferenceError
		SyntaxError TypeError URIError Number BigInt Math Date String RegExp Array Int8Array
		Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array
		Float64Array BigInt64Array BigUint64Array Map Set WeakMap WeakSet WeakRef
		FinalizationRegistry ArrayBuffer SharedArrayBuffer DataView Atomics JSON Promise Proxy
		Reflect Intl Iterator AsyncIterator Generator AsyncGenerator GeneratorFunction
		console process Buffer require module exports __dirname __filename global
		setTimeout setInterval setImmediate clearTimeout clearInterval clearImmediate
		queueMicrotask structuredClone fetch Request Response Headers FormData Blob File
		URL URLSearchParams TextEncoder TextDecoder AbortController AbortSignal atob btoa
		crypto performance EventTarget Event CustomEvent MessageChannel MessagePort
		BroadcastChannel ReadableStream WritableStream TransformStream WebAssembly
		window document navigator location history screen localStorage sessionStorage
		alert confirm prompt requestAnimationFrame cancelAnimationFrame requestIdleCallback
		getComputedStyle matchMedia open close postMessage addEventListener
		removeEventListener dispatchEvent HTMLElement Element Node NodeList Document Window
		MutationObserver ResizeObserver IntersectionObserver Worker WebSocket XMLHttpRequest
		FileReader Image Audio DOMParser XMLSerializer KeyboardEvent MouseEvent
		describe it test expect expectTypeOf assertType assert beforeEach afterEach beforeAll afterAll
		jest vi suite bench chai
		`) {
		globals[n] = true
	}
}

// builtinTypes are TypeScript's predefined and library types.
var builtinTypes = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`
		string number boolean bigint symbol object any unknown never void null undefined
		this Record Partial Required Readonly Pick Omit Exclude Extract NonNullable
		ReturnType Parameters InstanceType ConstructorParameters ThisType Awaited
		PromiseLike ArrayLike ReadonlyArray ReadonlyMap ReadonlySet Iterable
		IterableIterator AsyncIterable AsyncIterableIterator PropertyKey
		TemplateStringsArray NodeJS JSX React Express
		`) {
		builtinTypes[n] = true
	}
}

// isGlobal reports a name provided by the environment.
func isGlobal(name string) bool { return globals[name] }
