import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import com.sun.tools.javac.tree.JCTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The reference call graph of a Java repository for the accuracy report.
 *
 * <p>All .java files of the repository (tests included, module-info.java
 * excluded so that everything shares the unnamed module) are parsed and
 * attributed in one javac task; classes the repository does not contain
 * become error types, and calls whose resolution depends on them are
 * dropped. {@link CallScanner} turns invocations, object creations and
 * explicit this(...)/super(...) calls into static edges; this class adds
 * dispatch edges by class-hierarchy analysis over the repository's types
 * and writes one JSON edge per line, sorted and deduplicated.
 *
 * <p>Usage: {@code java JavaCallGraph <repo-dir> <out.jsonl> [files.txt]}
 * with the class path of the libraries the repository uses, if any, in the
 * environment variable ORACLE_CLASSPATH.
 */
public final class JavaCallGraph {
  private static final Set<String> EXCLUDED_DIRS =
      Set.of("vendor", "node_modules", "third_party", "testdata");

  final Path root;
  final Trees trees;
  final Elements elements;
  final Types types;
  final Set<String> edges = new HashSet<>();
  final List<VirtualSite> virtualSites = new ArrayList<>();
  /** Every type declared in the repository, anonymous and local ones included. */
  final List<TypeElement> repoTypes = new ArrayList<>();

  private final Map<CompilationUnitTree, String> sources = new IdentityHashMap<>();
  private final Map<TypeElement, List<TypeElement>> subtypesOf = new HashMap<>();

  /** A call that may dispatch: the resolved method and the receiver's static type. */
  record VirtualSite(String caller, String site, ExecutableElement method, TypeElement receiver) {}

  private JavaCallGraph(Path root, JavacTask task) {
    this.root = root;
    this.trees = Trees.instance(task);
    this.elements = task.getElements();
    this.types = task.getTypes();
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 2 || args.length > 3) {
      System.err.println("usage: JavaCallGraph <repo-dir> <out.jsonl> [files.txt]");
      System.exit(2);
    }
    long start = System.nanoTime();
    Path root = Path.of(args[0]).toRealPath();
    List<Path> files = javaFiles(root);
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fm =
        compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
      List<String> options = new ArrayList<>(List.of("-proc:none", "-implicit:none", "-Xmaxerrs", "1000000"));
      String cp = System.getenv("ORACLE_CLASSPATH");
      options.addAll(List.of("-classpath", cp == null ? "" : cp, "-sourcepath", ""));
      JavacTask task =
          (JavacTask)
              compiler.getTask(null, fm, diagnostics, options, null, fm.getJavaFileObjectsFromPaths(files));
      List<CompilationUnitTree> units = new ArrayList<>();
      task.parse().forEach(units::add);
      task.analyze();
      reportErrors(diagnostics);

      JavaCallGraph graph = new JavaCallGraph(root, task);
      for (CompilationUnitTree cu : units) {
        graph.collectTypes(cu);
      }
      for (CompilationUnitTree cu : units) {
        new CallScanner(graph, cu).scan(cu, null);
      }
      int statics = graph.edges.size();
      graph.addDispatchEdges();
      graph.write(Path.of(args[1]));
      if (args.length == 3) {
        Files.write(
            Path.of(args[2]),
            files.stream().map(graph::relative).sorted().collect(Collectors.toList()),
            StandardCharsets.UTF_8);
      }
      System.err.printf(
          "JavaCallGraph: %d files, %d types, %d static and %d dispatch edges, %d virtual sites, %.1fs%n",
          files.size(), graph.repoTypes.size(), statics, graph.edges.size() - statics,
          graph.virtualSites.size(), (System.nanoTime() - start) / 1e9);
    }
  }

  /** The repository's .java files outside excluded and hidden trees, module-info.java excluded. */
  static List<Path> javaFiles(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.getFileName().toString().equals("module-info.java"))
          .filter(Files::isRegularFile)
          .filter(p -> {
            for (Path part : root.relativize(p.getParent() == null ? p : p.getParent())) {
              String s = part.toString();
              if (EXCLUDED_DIRS.contains(s) || s.startsWith(".")) {
                return false;
              }
            }
            return true;
          })
          .sorted()
          .collect(Collectors.toList());
    }
  }

  /** Prints how many errors javac reported, by message, and the first few. */
  static void reportErrors(DiagnosticCollector<JavaFileObject> diagnostics) {
    Map<String, Integer> byCode = new HashMap<>();
    List<String> first = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() != Diagnostic.Kind.ERROR) {
        continue;
      }
      byCode.merge(d.getCode(), 1, Integer::sum);
      if (first.size() < 5 || System.getenv("ORACLE_VERBOSE") != null) {
        first.add(System.getenv("ORACLE_VERBOSE") != null ? d.getCode() + " " + d.toString().replace("\n", " | ") : d.toString().lines().findFirst().orElse(""));
      }
    }
    if (!byCode.isEmpty()) {
      System.err.println("JavaCallGraph: javac errors (missing libraries become error types): " + byCode);
      first.forEach(l -> System.err.println("  " + l));
    }
  }

  String relative(Path file) {
    return root.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
  }

  String relative(CompilationUnitTree cu) {
    return relative(Path.of(cu.getSourceFile().toUri()));
  }

  String source(CompilationUnitTree cu) {
    return sources.computeIfAbsent(cu, c -> {
      try {
        return c.getSourceFile().getCharContent(true).toString();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  int line(CompilationUnitTree cu, long pos) {
    return (int) cu.getLineMap().getLineNumber(pos);
  }

  /** Records every class, interface, enum, record, local and anonymous class of a file. */
  private void collectTypes(CompilationUnitTree cu) {
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitClass(ClassTree node, Void unused) {
        Element e = trees.getElement(getCurrentPath());
        if (e instanceof TypeElement t) {
          repoTypes.add(t);
        }
        return super.visitClass(node, unused);
      }
    }.scan(cu, null);
  }

  // ---- nodes ----

  /**
   * The node of a method or constructor declared in the repository, or null.
   * A constructor that javac supplies (default, canonical record) is its class.
   */
  String executableNode(ExecutableElement m) {
    if (elements.getOrigin(m) != Elements.Origin.EXPLICIT) {
      // A supplied constructor stands for its class; other supplied methods
      // (record accessors, enum values/valueOf) have no declaration.
      boolean ctor = m.getKind() == ElementKind.CONSTRUCTOR;
      return ctor && m.getEnclosingElement() instanceof TypeElement t ? typeNode(t) : null;
    }
    TreePath path = trees.getPath(m);
    if (path == null || !(path.getLeaf() instanceof MethodTree)) {
      return null;
    }
    return methodNode(path.getCompilationUnit(), (MethodTree) path.getLeaf(), m);
  }

  String methodNode(CompilationUnitTree cu, MethodTree tree, ExecutableElement m) {
    String name = m.getKind() == ElementKind.CONSTRUCTOR
        ? m.getEnclosingElement().getSimpleName().toString()
        : m.getSimpleName().toString();
    int pos = ((JCTree) tree).pos; // javac places a method declaration at its name
    return node(relative(cu), line(cu, pos), name);
  }

  /** The node of a named type declared in the repository, or null. */
  String typeNode(TypeElement t) {
    TreePath path = trees.getPath(t);
    if (path == null || !(path.getLeaf() instanceof ClassTree)) {
      return null;
    }
    return classNode(path.getCompilationUnit(), (ClassTree) path.getLeaf());
  }

  /** A named class: the line of its name, found after the keyword javac positions it at. */
  String classNode(CompilationUnitTree cu, ClassTree tree) {
    String name = tree.getSimpleName().toString();
    int pos = namePosition(source(cu), ((JCTree) tree).pos, name);
    return node(relative(cu), line(cu, pos), name);
  }

  /** The first occurrence of name as a whole identifier at or after from. */
  static int namePosition(String src, int from, String name) {
    for (int i = src.indexOf(name, from); i >= 0; i = src.indexOf(name, i + 1)) {
      boolean before = i == 0 || !Character.isJavaIdentifierPart(src.charAt(i - 1));
      int end = i + name.length();
      boolean after = end >= src.length() || !Character.isJavaIdentifierPart(src.charAt(end));
      if (before && after) {
        return i;
      }
    }
    return from;
  }

  static String node(String file, int line, String name) {
    return "{\"file\":" + json(file) + ",\"line\":" + line + ",\"name\":" + json(name) + "}";
  }

  static String site(String file, int line) {
    return "{\"file\":" + json(file) + ",\"line\":" + line + "}";
  }

  static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  void addEdge(String caller, String callee, String kind, String site) {
    edges.add("{\"caller\":" + caller + ",\"callee\":" + callee + ",\"kind\":\"" + kind
        + "\",\"site\":" + site + "}");
  }

  private void write(Path out) throws IOException {
    Files.write(out, new TreeSet<>(edges), StandardCharsets.UTF_8);
  }

  // ---- dispatch ----

  /**
   * For each virtual call of m on a receiver of static type R: every method
   * that an object of a repository subtype S of R runs for m, when that
   * method is not m itself, has a body and is declared in the repository.
   */
  private void addDispatchEdges() {
    Map<ExecutableElement, Map<TypeElement, Set<String>>> cache = new IdentityHashMap<>();
    for (VirtualSite s : virtualSites) {
      Set<String> targets = cache
          .computeIfAbsent(s.method(), k -> new HashMap<>())
          .computeIfAbsent(s.receiver(), r -> overriders(s.method(), r));
      for (String t : targets) {
        addEdge(s.caller(), t, "dispatch", s.site());
      }
    }
  }

  private Set<String> overriders(ExecutableElement m, TypeElement receiver) {
    Set<String> out = new LinkedHashSet<>();
    for (TypeElement s : subtypes(receiver)) {
      for (ExecutableElement impl : implementations(s, m)) {
        if (impl != m && !impl.getModifiers().contains(Modifier.ABSTRACT)) {
          String n = executableNode(impl);
          if (n != null) {
            out.add(n);
          }
        }
      }
    }
    return out;
  }

  /** The repository types whose erasure is a subtype of r's (r included). */
  private List<TypeElement> subtypes(TypeElement r) {
    return subtypesOf.computeIfAbsent(r, k -> {
      TypeMirror target = types.erasure(k.asType());
      List<TypeElement> out = new ArrayList<>();
      for (TypeElement s : repoTypes) {
        if (types.isSubtype(types.erasure(s.asType()), target)) {
          out.add(s);
        }
      }
      return out;
    });
  }

  /**
   * The methods an object whose class is s runs for m: the nearest
   * declaration in s's class chain that is m or overrides m from s, else the
   * most specific default methods of s's interfaces that are m or override it.
   */
  private List<ExecutableElement> implementations(TypeElement s, ExecutableElement m) {
    for (TypeElement c = s; c != null; c = superclass(c)) {
      ExecutableElement found = declaredOverrider(c, s, m);
      if (found != null) {
        return List.of(found);
      }
    }
    List<ExecutableElement> defaults = new ArrayList<>();
    for (TypeElement i : superinterfaces(s)) {
      ExecutableElement found = declaredOverrider(i, s, m);
      if (found != null && !found.getModifiers().contains(Modifier.ABSTRACT)) {
        defaults.add(found);
      }
    }
    defaults.removeIf(d -> defaults.stream().anyMatch(o -> o != d
        && types.isSubtype(
            types.erasure(o.getEnclosingElement().asType()),
            types.erasure(d.getEnclosingElement().asType()))));
    return defaults;
  }

  private ExecutableElement declaredOverrider(TypeElement c, TypeElement s, ExecutableElement m) {
    for (Element e : c.getEnclosedElements()) {
      if (e.getKind() == ElementKind.METHOD && e.getSimpleName().equals(m.getSimpleName())) {
        ExecutableElement x = (ExecutableElement) e;
        if (x == m || elements.overrides(x, m, s)) {
          return x;
        }
      }
    }
    return null;
  }

  private TypeElement superclass(TypeElement c) {
    TypeMirror sup = c.getSuperclass();
    return sup.getKind() == TypeKind.DECLARED ? (TypeElement) ((DeclaredType) sup).asElement() : null;
  }

  /** All interfaces s implements or extends, directly or through supertypes. */
  private Set<TypeElement> superinterfaces(TypeElement s) {
    Set<TypeElement> out = new LinkedHashSet<>();
    List<TypeElement> work = new ArrayList<>(List.of(s));
    while (!work.isEmpty()) {
      TypeElement t = work.remove(work.size() - 1);
      List<TypeMirror> sups = new ArrayList<>(t.getInterfaces());
      sups.add(t.getSuperclass());
      for (TypeMirror sup : sups) {
        if (sup.getKind() != TypeKind.DECLARED) {
          continue;
        }
        TypeElement e = (TypeElement) ((DeclaredType) sup).asElement();
        if (e.getKind().isInterface() && out.add(e)) {
          work.add(e);
        } else if (!e.getKind().isInterface()) {
          work.add(e);
        }
      }
    }
    if (s.getKind().isInterface()) {
      out.add(s);
    }
    return out;
  }
}
