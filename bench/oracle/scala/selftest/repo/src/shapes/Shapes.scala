package shapes

trait Shape {
  def area: Double
  def describe(): String = "shape " + area
}

class Circle(r: Double) extends Shape {
  def area: Double = 3.0 * r * r
}

class Square(side: Double) extends Shape {
  def area: Double = side * side
  override def describe(): String = "square " + Util.twice(side)
}

class Loud extends Shape {
  def area: Double = 1.0
  override def describe(): String = super.describe() + "!"
}

case class Point(x: Int, y: Int = Util.origin())

object Util {
  def origin(): Int = 0
  def twice(d: Double): Double = d * 2
}

class Base(val name: String) {
  def hello(): String = greet(name)
  private def greet(who: String): String = "hi " + who
}

class Derived(n: Int) extends Base(Derived.label()) {
  val tags = List(Derived.label())

  def this() = {
    this(Derived.record(1))
  }

  override def hello(): String = super.hello() + "!"
}

object Derived {
  def label(): String = "base"
  def record(n: Int): Int = n + 1
  def create(): Derived = new Derived()
}

trait Echo extends Shape {
  override def describe(): String = super.describe() + "?"
}
