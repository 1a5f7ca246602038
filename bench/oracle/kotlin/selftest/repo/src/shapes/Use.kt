package shapes

data class Point(val x: Int, val y: Int = origin())

fun origin(): Int = 0

fun Shape.twice(): Double = area() * 2

fun total(shapes: List<Shape>, scale: Int = origin()): Double {
    var sum = 0.0
    shapes.forEach { s -> sum += s.twice() }
    val f = { p: Point -> p.copy(x = label().length) }
    f(Point(1))
    return sum + scale
}

fun run(shape: Shape, base: Base) {
    val c = Circle(1.0)
    total(listOf(c, Square(2.0)))
    c.describe()
    shape.describe()
    Derived.create().hello()
    Derived(3)
    Square(1.0).size; base.hello()
    helper()
}

private fun helper() {
    fun local(n: Int): Int = n + origin()
    local(2)
    val runner = object : Runnable {
        override fun run() {
            origin()
        }
    }
    runner.run()
}

fun refs(xs: List<Int>): List<Int> = xs.map(::double)
    .map { double(it) }

fun double(n: Int): Int = n * 2
