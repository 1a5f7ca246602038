package shapes

interface Shape {
    fun area(): Double
    fun describe(): String = "shape " + area()
}

class Circle(val r: Double) : Shape {
    override fun area(): Double = 3.0 * r * r
}

class Square(val side: Double) : Shape {
    val size: Int
        get() = origin()

    override fun area(): Double = side * side

    override fun describe(): String = "square"
}

open class Base(val name: String) {
    open fun hello(excl: String = "!"): String = greet(name) + excl

    protected fun greet(who: String): String = "hi $who"
}

class Derived() : Base(label()) {
    val tags = listOf(label())

    override fun hello(excl: String): String = super.hello(excl) + "?"

    constructor(extra: Int) : this() {
        record(extra)
    }

    companion object {
        fun create(): Derived = Derived()

        fun record(n: Int) = n + 1
    }
}

fun label(): String = "base"

class Loud : Shape {
    override fun area(): Double = 1.0

    override fun describe(): String = super.describe() + "!"
}
