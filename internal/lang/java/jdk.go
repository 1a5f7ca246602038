package java

import "strings"

// Facts about the JDK that overload choice needs: the supertypes of the
// most used library types (by simple name), so that an argument of an
// outside type is known not to fit a parameter of an unrelated outside type
// (a StringWriter is an Appendable, never a java.lang.reflect.Type), and the
// result types of common library methods called on outside receivers.

// jdkSupertypes lists direct supertypes, one type per line.
const jdkSupertypes = `
Object:
String: CharSequence Comparable Serializable Constable ConstantDesc
StringBuilder: AbstractStringBuilder CharSequence Appendable Serializable Comparable
StringBuffer: AbstractStringBuilder CharSequence Appendable Serializable Comparable
CharSequence:
Appendable:
Comparable:
Serializable:
Cloneable:
AutoCloseable:
Closeable: AutoCloseable
Flushable:
Readable:
Iterable:
Runnable:
Number: Serializable
Integer: Number Comparable Constable ConstantDesc
Long: Number Comparable Constable ConstantDesc
Short: Number Comparable Constable
Byte: Number Comparable Constable
Double: Number Comparable Constable ConstantDesc
Float: Number Comparable Constable ConstantDesc
BigInteger: Number Comparable
BigDecimal: Number Comparable
AtomicInteger: Number
AtomicLong: Number
Boolean: Serializable Comparable Constable
Character: Serializable Comparable Constable
Class: Type GenericDeclaration AnnotatedElement Serializable
Type:
ParameterizedType: Type
GenericArrayType: Type
WildcardType: Type
TypeVariable: Type
AnnotatedElement:
GenericDeclaration: AnnotatedElement
AccessibleObject: AnnotatedElement
Executable: AccessibleObject Member GenericDeclaration
Method: Executable
Constructor: Executable
Field: AccessibleObject Member
Member:
Enum: Comparable Serializable Constable
Record:
Thread: Runnable
Supplier:
Function:
Consumer:
Predicate:
BiFunction:
BiConsumer:
BiPredicate:
UnaryOperator: Function
BinaryOperator: BiFunction
IntFunction:
IntPredicate:
IntConsumer:
IntSupplier:
IntUnaryOperator:
IntBinaryOperator:
ToIntFunction:
ToLongFunction:
ToDoubleFunction:
LongSupplier:
DoubleSupplier:
BooleanSupplier:
Callable:
Comparator:
FileFilter:
FilenameFilter:
Throwable: Serializable
Exception: Throwable
Error: Throwable
RuntimeException: Exception
IOException: Exception
UncheckedIOException: RuntimeException
FileNotFoundException: IOException
EOFException: IOException
MalformedURLException: IOException
InterruptedException: Exception
ReflectiveOperationException: Exception
ClassNotFoundException: ReflectiveOperationException
NoSuchMethodException: ReflectiveOperationException
NoSuchFieldException: ReflectiveOperationException
IllegalAccessException: ReflectiveOperationException
InstantiationException: ReflectiveOperationException
InvocationTargetException: ReflectiveOperationException
CloneNotSupportedException: Exception
TimeoutException: Exception
ExecutionException: Exception
ParseException: Exception
IllegalArgumentException: RuntimeException
NumberFormatException: IllegalArgumentException
IllegalStateException: RuntimeException
NullPointerException: RuntimeException
ClassCastException: RuntimeException
ArithmeticException: RuntimeException
UnsupportedOperationException: RuntimeException
IndexOutOfBoundsException: RuntimeException
ArrayIndexOutOfBoundsException: IndexOutOfBoundsException
StringIndexOutOfBoundsException: IndexOutOfBoundsException
NoSuchElementException: RuntimeException
ConcurrentModificationException: RuntimeException
SecurityException: RuntimeException
DateTimeException: RuntimeException
AssertionError: Error
OutOfMemoryError: VirtualMachineError
StackOverflowError: VirtualMachineError
VirtualMachineError: Error
LinkageError: Error
ExceptionInInitializerError: LinkageError
NoClassDefFoundError: LinkageError
Collection: Iterable
List: SequencedCollection
SequencedCollection: Collection
Set: Collection
SortedSet: Set SequencedSet
NavigableSet: SortedSet
SequencedSet: SequencedCollection Set
Queue: Collection
Deque: Queue SequencedCollection
AbstractCollection: Collection
AbstractList: AbstractCollection List
AbstractSequentialList: AbstractList
AbstractSet: AbstractCollection Set
AbstractQueue: AbstractCollection Queue
ArrayList: AbstractList List RandomAccess Cloneable Serializable
LinkedList: AbstractSequentialList List Deque Cloneable Serializable
CopyOnWriteArrayList: List RandomAccess Cloneable Serializable
Vector: AbstractList List RandomAccess Cloneable Serializable
Stack: Vector
HashSet: AbstractSet Set Cloneable Serializable
LinkedHashSet: HashSet SequencedSet
TreeSet: AbstractSet NavigableSet Cloneable Serializable
EnumSet: AbstractSet Cloneable Serializable
ArrayDeque: AbstractCollection Deque Cloneable Serializable
PriorityQueue: AbstractQueue Serializable
Map:
SortedMap: Map SequencedMap
NavigableMap: SortedMap
SequencedMap: Map
ConcurrentMap: Map
AbstractMap: Map
HashMap: AbstractMap Map Cloneable Serializable
LinkedHashMap: HashMap SequencedMap
TreeMap: AbstractMap NavigableMap Cloneable Serializable
EnumMap: AbstractMap Serializable Cloneable
IdentityHashMap: AbstractMap Map Serializable Cloneable
WeakHashMap: AbstractMap Map
ConcurrentHashMap: AbstractMap ConcurrentMap Serializable
Hashtable: Dictionary Map Cloneable Serializable
Properties: Hashtable
Iterator:
ListIterator: Iterator
Optional:
Stream: BaseStream
BaseStream: AutoCloseable
Date: Serializable Cloneable Comparable
Calendar: Serializable Cloneable Comparable
GregorianCalendar: Calendar
TimeZone: Serializable Cloneable
Locale: Cloneable Serializable
UUID: Serializable Comparable
Instant: Temporal TemporalAdjuster Comparable Serializable
LocalDate: Temporal TemporalAdjuster ChronoLocalDate Serializable
LocalDateTime: Temporal TemporalAdjuster ChronoLocalDateTime Serializable
LocalTime: Temporal TemporalAdjuster Comparable Serializable
Duration: TemporalAmount Comparable Serializable
TemporalAccessor:
Temporal: TemporalAccessor
TemporalAdjuster:
TemporalAmount:
ChronoLocalDate: Temporal TemporalAdjuster Comparable
ChronoLocalDateTime: Temporal TemporalAdjuster Comparable
ChronoZonedDateTime: Temporal Comparable
ChronoPeriod: TemporalAmount
ZonedDateTime: Temporal ChronoZonedDateTime Serializable
OffsetDateTime: Temporal TemporalAdjuster Comparable Serializable
OffsetTime: Temporal TemporalAdjuster Comparable Serializable
Year: Temporal TemporalAdjuster Comparable Serializable
YearMonth: Temporal TemporalAdjuster Comparable Serializable
MonthDay: TemporalAccessor TemporalAdjuster Comparable Serializable
Period: ChronoPeriod Serializable
ZoneId: Serializable
ZoneOffset: ZoneId TemporalAccessor TemporalAdjuster Comparable Serializable
Clock: InstantSource
InstantSource:
DateTimeFormatter:
FileTime: Comparable
FileSystem: Closeable
Charset: Comparable
Pattern: Serializable
File: Serializable Comparable
Path: Comparable Iterable Watchable
URI: Comparable Serializable
URL: Serializable
InputStream: Closeable
OutputStream: Closeable Flushable
ByteArrayInputStream: InputStream
ByteArrayOutputStream: OutputStream
FileInputStream: InputStream
FileOutputStream: OutputStream
FilterInputStream: InputStream
FilterOutputStream: OutputStream
BufferedInputStream: FilterInputStream
BufferedOutputStream: FilterOutputStream
DataInputStream: FilterInputStream DataInput
DataOutputStream: FilterOutputStream DataOutput
ObjectInputStream: InputStream ObjectInput
ObjectOutputStream: OutputStream ObjectOutput
PrintStream: FilterOutputStream Appendable Closeable
Reader: Readable Closeable
Writer: Appendable Closeable Flushable
StringReader: Reader
StringWriter: Writer
CharArrayReader: Reader
CharArrayWriter: Writer
BufferedReader: Reader
BufferedWriter: Writer
InputStreamReader: Reader
OutputStreamWriter: Writer
FileReader: InputStreamReader
FileWriter: OutputStreamWriter
PrintWriter: Writer
`

// jdkSupers maps a JDK type to all its supertypes (transitively).
var jdkSupers = map[string]map[string]bool{}

func init() {
	direct := map[string][]string{}
	for _, line := range strings.Split(jdkSupertypes, "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		direct[strings.TrimSpace(name)] = strings.Fields(rest)
	}
	var closure func(name string, into map[string]bool)
	closure = func(name string, into map[string]bool) {
		for _, s := range direct[name] {
			if !into[s] {
				into[s] = true
				closure(s, into)
			}
		}
	}
	for name := range direct {
		all := map[string]bool{"Object": true}
		closure(name, all)
		jdkSupers[name] = all
	}
}

// outsideSubtype reports whether the outside type a may be passed as the
// outside type q: known for JDK types, assumed for others.
func outsideSubtype(a, q string) (fits, known bool) {
	if a == q || q == "Object" {
		return true, true
	}
	if finalJDK[q] {
		return false, true // no other type is a subtype of a final class
	}
	supers, ok := jdkSupers[a]
	if !ok {
		return true, false
	}
	return supers[q], true
}

// finalJDK are final JDK classes: only the class itself fits them.
var finalJDK = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`String Integer Long Short Byte Double Float Character Boolean Void Class
		StringBuilder StringBuffer Math System Locale UUID Optional Pattern URI URL LocalDate LocalDateTime
		LocalTime Instant Duration ZonedDateTime OffsetDateTime OffsetTime Year YearMonth MonthDay Period
		ZoneOffset DateTimeFormatter FileTime`) {
		finalJDK[n] = true
	}
}

// libraryResults are the result types of common library methods, by name,
// when called on a receiver outside the repository.
var libraryResults = map[string]string{
	"toString": "String", "hashCode": "int", "equals": "boolean", "getClass": "Class",
	"length": "int", "size": "int", "isEmpty": "boolean", "contains": "boolean", "containsKey": "boolean",
	"startsWith": "boolean", "endsWith": "boolean", "equalsIgnoreCase": "boolean", "hasNext": "boolean",
	"charAt": "char", "substring": "String", "trim": "String", "strip": "String", "toLowerCase": "String",
	"toUpperCase": "String", "concat": "String", "repeat": "String", "getSimpleName": "String",
	"getMessage": "String", "getCanonicalName": "String", "getTypeName": "String",
	"intValue": "int", "longValue": "long", "doubleValue": "double", "floatValue": "float",
	"booleanValue": "boolean", "compareTo": "int", "indexOf": "int", "lastIndexOf": "int", "ordinal": "int",
	"toCharArray": "char[]", "getBytes": "byte[]", "getName": "String", "charValue": "char",
	"shortValue": "short", "byteValue": "byte",
	// Collection.toArray(T[]) gives the array type it is handed.
	"toArray": sameAsFirstArgument,
}

// stringResults are the result types of String methods, for a receiver
// known to be a String.
var stringResults = map[string]string{
	"replace": "String", "replaceAll": "String", "replaceFirst": "String", "formatted": "String",
	"split": "String[]", "intern": "String", "stripLeading": "String", "stripTrailing": "String",
	"codePointAt": "int", "compareToIgnoreCase": "int", "isBlank": "boolean", "matches": "boolean",
}

// staticLibraryResults are the result types of common static library
// methods, by "Type.method".
var staticLibraryResults = map[string]string{
	"String.valueOf": "String", "String.format": "String", "String.join": "String",
	"Integer.parseInt": "int", "Integer.valueOf": "Integer", "Integer.toString": "String",
	"Long.parseLong": "long", "Long.valueOf": "Long", "Long.toString": "String",
	"Double.parseDouble": "double", "Double.valueOf": "Double", "Double.toString": "String",
	"Float.parseFloat": "float", "Boolean.parseBoolean": "boolean", "Boolean.valueOf": "Boolean",
	"Objects.equals": "boolean", "Objects.hash": "int", "Objects.hashCode": "int", "Objects.toString": "String",
	"Arrays.toString": "String", "System.currentTimeMillis": "long", "System.nanoTime": "long",
	"System.identityHashCode": "int", "System.lineSeparator": "String", "System.getProperty": "String",
	"Character.isDigit": "boolean", "Character.isLetter": "boolean",
	"Character.isWhitespace": "boolean", "Integer.toHexString": "String", "Long.toHexString": "String",
	"Arrays.asList": "List", "List.of": "List", "Set.of": "Set", "Map.of": "Map",
	"Collections.emptyList": "List", "Collections.singletonList": "List", "Collections.unmodifiableList": "List",
	"Collections.emptyMap": "Map", "Collections.singletonMap": "Map", "Collections.unmodifiableMap": "Map",
	"Collections.emptySet": "Set", "Collections.singleton": "Set", "Collections.unmodifiableSet": "Set",
	"EnumSet.allOf": "EnumSet", "EnumSet.of": "EnumSet", "EnumSet.noneOf": "EnumSet",
	"Calendar.getInstance": "Calendar", "BigInteger.valueOf": "BigInteger", "BigDecimal.valueOf": "BigDecimal",
	"Optional.of": "Optional", "Optional.empty": "Optional", "Optional.ofNullable": "Optional",
	"Pattern.compile": "Pattern", "Thread.currentThread": "Thread", "UUID.randomUUID": "UUID",
	"Paths.get": "Path", "Path.of": "Path", "Instant.now": "Instant", "LocalDate.now": "LocalDate",
	"Double.doubleToLongBits": "long", "Float.floatToIntBits": "int", "Math.toIntExact": "int",
	"Locale.getDefault": "Locale", "TimeZone.getDefault": "TimeZone", "TimeZone.getTimeZone": "TimeZone",
	"Objects.requireNonNull": sameAsFirstArgument, "Objects.requireNonNullElse": sameAsFirstArgument,
	"Files.newInputStream": "InputStream", "Files.newOutputStream": "OutputStream",
	"Files.newBufferedReader": "BufferedReader", "Files.newBufferedWriter": "BufferedWriter",
	"ZonedDateTime.now": "ZonedDateTime", "OffsetDateTime.now": "OffsetDateTime",
	"LocalDateTime.now": "LocalDateTime", "Duration.ofMillis": "Duration", "Duration.ofSeconds": "Duration",
}

// sameAsFirstArgument marks a library method that returns its first
// argument's type.
const sameAsFirstArgument = "$0"

// staticLibraryFields are the types of common static library constants, by
// "Type.FIELD".
var staticLibraryFields = map[string]string{}

// constantHolders are library types whose static fields are all of one
// type (Locale.US is a Locale).
var constantHolders = map[string]string{"Locale": "Locale", "TimeUnit": "TimeUnit",
	"StandardCharsets": "Charset", "ChronoUnit": "ChronoUnit", "RoundingMode": "RoundingMode",
	"ChronoField": "ChronoField", "DayOfWeek": "DayOfWeek", "Month": "Month"}

func init() {
	for typ, prim := range map[string]string{"Integer": "int", "Long": "long", "Short": "short", "Byte": "byte",
		"Double": "double", "Float": "float", "Character": "char"} {
		for _, f := range []string{"MAX_VALUE", "MIN_VALUE"} {
			staticLibraryFields[typ+"."+f] = prim
		}
	}
	for _, typ := range []string{"Double", "Float"} {
		for _, f := range []string{"NaN", "POSITIVE_INFINITY", "NEGATIVE_INFINITY", "MIN_NORMAL"} {
			staticLibraryFields[typ+"."+f] = strings.ToLower(typ)
		}
	}
	for _, f := range []string{"ZERO", "ONE", "TWO", "TEN"} {
		staticLibraryFields["BigInteger."+f] = "BigInteger"
		staticLibraryFields["BigDecimal."+f] = "BigDecimal"
	}
	for _, box := range []string{"Integer", "Long", "Short", "Byte", "Double", "Float", "Character", "Boolean", "Void"} {
		staticLibraryResults[box+".valueOf"] = box
		staticLibraryFields[box+".TYPE"] = "Class"
	}
	staticLibraryFields["Boolean.TRUE"] = "Boolean"
	staticLibraryFields["Boolean.FALSE"] = "Boolean"
	staticLibraryFields["Math.PI"] = "double"
	staticLibraryFields["Math.E"] = "double"
}
