import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.TreeInfo;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/**
 * Walks one attributed compilation unit and records, for each call written
 * in the source, the static edge to the declaration javac resolved it to.
 *
 * <p>The caller is the innermost method or constructor, anonymous-class
 * methods included; lambdas belong to their enclosing method; field
 * initializers and initializer blocks belong to their class (for an
 * anonymous class: a node with an empty name at the line of its
 * {@code new}). Calls are method invocations, explicit this(...)/super(...)
 * calls and object creations; an anonymous class creation calls the
 * superclass constructor, and a constructor javac supplies stands for its
 * class. Enum constants (implicit creations), method references, and the
 * super() calls and default constructors javac inserts are not calls
 * written in the source and are skipped.
 */
final class CallScanner extends TreePathScanner<Void, Void> {
  private final JavaCallGraph graph;
  private final CompilationUnitTree cu;
  private final String file;
  private String caller; // innermost enclosing node, null outside any type

  CallScanner(JavaCallGraph graph, CompilationUnitTree cu) {
    this.graph = graph;
    this.cu = cu;
    this.file = graph.relative(cu);
  }

  @Override
  public Void visitClass(ClassTree node, Void unused) {
    String saved = caller;
    if (node.getSimpleName().isEmpty()) {
      Tree creation = getCurrentPath().getParentPath().getLeaf();
      caller = JavaCallGraph.node(file, line(creation), "");
    } else {
      caller = graph.classNode(cu, node);
    }
    super.visitClass(node, unused);
    caller = saved;
    return null;
  }

  @Override
  public Void visitMethod(MethodTree node, Void unused) {
    Element e = graph.trees.getElement(getCurrentPath());
    if (!(e instanceof ExecutableElement m) || supplied(m)) {
      return null; // default or anonymous-class constructor: javac's, not the source's
    }
    String saved = caller;
    caller = graph.methodNode(cu, node, m);
    super.visitMethod(node, unused);
    caller = saved;
    return null;
  }

  /** Whether javac supplied the method rather than the source declaring it. */
  private boolean supplied(ExecutableElement m) {
    long flags = ((Symbol) m).flags();
    return graph.elements.getOrigin(m) != Elements.Origin.EXPLICIT
        || (flags & (Flags.GENERATEDCONSTR | Flags.ANONCONSTR)) != 0;
  }

  @Override
  public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
    Element e = graph.trees.getElement(getCurrentPath());
    if (caller != null && e instanceof ExecutableElement m) {
      if (m.getKind() == ElementKind.CONSTRUCTOR) {
        if (written(node)) {
          edge(m, node);
        }
      } else if (m.getKind() == ElementKind.METHOD) {
        edge(m, node);
        TypeElement receiver = virtualReceiver(node, m);
        if (receiver != null) {
          graph.virtualSites.add(
              new JavaCallGraph.VirtualSite(caller, JavaCallGraph.site(file, line(node)), m, receiver));
        }
      }
    }
    return super.visitMethodInvocation(node, unused);
  }

  /** Whether a this(...)/super(...) call is written, not inserted by javac. */
  private boolean written(MethodInvocationTree node) {
    int start = (int) graph.trees.getSourcePositions().getStartPosition(cu, node);
    String src = graph.source(cu);
    return start >= 0 && (src.startsWith("this", start) || src.startsWith("super", start)
        || node.getMethodSelect() instanceof MemberSelectTree); // outer.super(...)
  }

  @Override
  public Void visitNewClass(NewClassTree node, Void unused) {
    if (caller != null && !isEnumConstant()) {
      ExecutableElement ctor = constructorOf(node);
      if (ctor != null) {
        edge(ctor, node);
      }
    }
    return super.visitNewClass(node, unused);
  }

  private boolean isEnumConstant() {
    TreePath parent = getCurrentPath().getParentPath();
    if (!(parent.getLeaf() instanceof VariableTree)) {
      return false;
    }
    Element v = graph.trees.getElement(parent);
    return v != null && v.getKind() == ElementKind.ENUM_CONSTANT;
  }

  /**
   * The constructor an object creation calls: the resolved one, or for an
   * anonymous class the superclass constructor that its supplied
   * constructor calls.
   */
  private ExecutableElement constructorOf(NewClassTree node) {
    if (node.getClassBody() == null) {
      return ((JCTree.JCNewClass) node).constructor instanceof ExecutableElement m ? m : null;
    }
    for (Tree member : node.getClassBody().getMembers()) {
      if (member instanceof MethodTree md && md.getName().contentEquals("<init>") && md.getBody() != null) {
        for (StatementTree st : md.getBody().getStatements()) {
          if (st instanceof ExpressionStatementTree es
              && es.getExpression() instanceof MethodInvocationTree call
              && TreeInfo.symbol((JCTree) call.getMethodSelect()) instanceof ExecutableElement sup
              && sup.getKind() == ElementKind.CONSTRUCTOR) {
            return sup;
          }
        }
      }
    }
    return null;
  }

  private void edge(ExecutableElement callee, Tree call) {
    String target = graph.executableNode(callee);
    if (target != null) {
      graph.addEdge(caller, target, "static", JavaCallGraph.site(file, line(call)));
    }
  }

  /**
   * For a call that may dispatch, the receiver's static type: the type of
   * the qualifying expression, or for an unqualified call the innermost
   * enclosing class that has the method as a member. Null for calls that
   * cannot dispatch: static, private, final methods, and super.m().
   */
  private TypeElement virtualReceiver(MethodInvocationTree node, ExecutableElement m) {
    if (m.getModifiers().contains(Modifier.STATIC) || m.getModifiers().contains(Modifier.PRIVATE)
        || m.getModifiers().contains(Modifier.FINAL)) {
      return null;
    }
    TypeElement owner = (TypeElement) m.getEnclosingElement();
    TypeMirror ownerType = graph.types.erasure(owner.asType());
    ExpressionTree select = node.getMethodSelect();
    if (select instanceof MemberSelectTree ms) {
      ExpressionTree q = ms.getExpression();
      if (isSuper(q)) {
        return null;
      }
      TypeMirror t = graph.trees.getTypeMirror(new TreePath(getCurrentPath(), q));
      if (t == null) {
        return owner;
      }
      t = graph.types.erasure(t);
      if (t.getKind() == TypeKind.DECLARED && graph.types.isSubtype(t, ownerType)) {
        return (TypeElement) ((DeclaredType) t).asElement();
      }
      return owner;
    }
    for (TreePath p = getCurrentPath(); p != null; p = p.getParentPath()) {
      if (p.getLeaf() instanceof ClassTree
          && graph.trees.getElement(p) instanceof TypeElement c
          && graph.types.isSubtype(graph.types.erasure(c.asType()), ownerType)) {
        return c;
      }
    }
    return owner;
  }

  private static boolean isSuper(ExpressionTree q) {
    return (q instanceof IdentifierTree id && id.getName().contentEquals("super"))
        || (q instanceof MemberSelectTree s && s.getIdentifier().contentEquals("super"));
  }

  private int line(Tree t) {
    return graph.line(cu, graph.trees.getSourcePositions().getStartPosition(cu, t));
  }
}
