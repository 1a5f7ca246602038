package python

import "strings"

// builtinNames are the names Python provides in every module without an
// import: the builtins module (functions, types, exceptions, constants) as
// of Python 3.13, the module attributes the interpreter sets, and the
// Python 2 builtins that old code still calls. A name the repository
// defines or imports shadows them.
var builtinNames = map[string]bool{}

// builtinMembers are the methods of the builtin types (str, bytes, list,
// dict, set, tuple, int, float, files, generators). A method call on a
// receiver of unknown type with one of these names most likely calls the
// builtin, so no name-only guess is made for it.
var builtinMembers = map[string]bool{}

// IsBuiltinMember reports whether name is a method of a builtin type.
func (rules) IsBuiltinMember(name string) bool { return builtinMembers[name] }

func init() {
	for _, n := range strings.Fields(`
		add append as_integer_ratio bit_count bit_length capitalize casefold cast center clear close
		conjugate copy count decode detach difference difference_update discard encode endswith
		expandtabs extend fileno find flush format format_map from_bytes fromhex fromkeys get getbuffer
		getvalue hex index indices insert intersection intersection_update is_integer isalnum isalpha
		isascii isatty isdecimal isdigit isdisjoint isidentifier islower isnumeric isprintable isspace
		issubset issuperset istitle isupper items join keys ljust lower lstrip maketrans partition peek
		pop popitem read read1 readable readinto readinto1 readline readlines reconfigure release remove
		removeprefix removesuffix replace reverse rfind rindex rjust rpartition rsplit rstrip seek
		seekable send setdefault sort split splitlines startswith strip swapcase symmetric_difference
		symmetric_difference_update tell throw title to_bytes tobytes tolist toreadonly translate
		truncate union update upper values writable write writelines zfill
	`) {
		builtinMembers[n] = true
	}

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
