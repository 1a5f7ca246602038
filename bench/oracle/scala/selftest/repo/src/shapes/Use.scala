package shapes

object Use {
  def total(shapes: List[Shape], scale: Int = Util.origin()): Double = {
    var sum = 0.0
    shapes.foreach { s => sum += s.area }
    sum + scale
  }

  def run(shape: Shape): Unit = {
    val c = new Circle(1.0)
    total(List(c, new Square(2.0)))
    c.describe()
    shape.describe()
    Derived.create().hello()
    new Derived()
    val p = Point(1)
    p.copy(x = 2)
    helper()
  }

  private def helper(): Int = {
    def local(n: Int): Int = n + Util.origin()
    val r = new Runnable {
      def run(): Unit = Util.origin()
    }
    r.run()
    local(2)
  }

  def nested(xs: List[Int]): List[Int] = xs.map { x =>
    def inc(n: Int): Int = n + Util.origin()
    inc(x)
  }

  @annotation.tailrec
  def countdown(n: Int): Int =
    if (n <= 0) Util.origin() else countdown(n - 1)
}
