package python

import "strings"

// builtinNames are the names Python provides in every module without an
// import: the builtins module (functions, types, exceptions, constants) as
// of Python 3.13, the module attributes the interpreter sets, and the
// Python 2 builtins that old code still calls. A name the repository
// defines or imports shadows them.
var builtinNames = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`
		abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod
		compile complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float
		format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter
		len license list locals map max memoryview min next object oct open ord pow print property quit
		range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip
		__build_class__ __debug__ __doc__ __import__ __loader__ __name__ __package__ __spec__
		__file__ __cached__ __path__ __builtins__ __annotations__ __dict__ __qualname__ __module__ __class__
		Ellipsis False None NotImplemented True
		ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
		BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
		ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError EncodingWarning
		EnvironmentError Exception ExceptionGroup FileExistsError FileNotFoundError FloatingPointError
		FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
		InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
		ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError
		PendingDeprecationWarning PermissionError ProcessLookupError PythonFinalizationError
		RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration
		StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError TypeError
		UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError
		UnicodeWarning UserWarning ValueError Warning WindowsError ZeroDivisionError
		basestring buffer cmp execfile file long raw_input reduce reload unichr unicode xrange
	`) {
		builtinNames[n] = true
	}
}
