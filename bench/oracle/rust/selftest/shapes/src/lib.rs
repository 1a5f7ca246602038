/// Something with an area.
pub trait Shape {
    fn area(&self) -> f64;
    /// A description, from the area by default.
    fn describe(&self) -> String {
        let a = self.area();
        format!("{}", a)
    }
}

pub struct Square {
    side: f64,
}

pub struct Circle {
    r: f64,
}

impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
    fn describe(&self) -> String {
        String::from("circle")
    }
}

/// Land has an area too, but is no Shape.
pub struct Land;

impl Land {
    pub fn area(&self) -> f64 {
        0.0
    }
}

pub fn total(shapes: &[Box<dyn Shape>]) -> f64 {
    let mut t = 0.0;
    for s in shapes {
        t += s.area();
    }
    t
}

pub fn show(s: &dyn Shape) -> String {
    s.describe()
}

pub fn show_any(s: impl Shape) -> f64 {
    s.area()
}

pub fn generic<T: Shape>(s: &T) -> f64 {
    s.area()
}

pub fn bounded<T>(s: T) -> f64
where
    T: Shape,
{
    s.area()
}

pub fn concrete(sq: Square, c: &Circle) -> String {
    sq.area();
    c.describe();
    sq.describe()
}

pub mod util {
    pub const fn double(x: f64) -> f64 {
        x * 2.0
    }
}

pub struct Wrapper<T> {
    inner: T,
}

impl<T: Shape> Wrapper<T> {
    pub fn new(inner: T) -> Self {
        Self::check(&inner);
        Wrapper { inner }
    }

    fn check(s: &T) -> f64 {
        let f = |x: f64| util::double(x);
        f(s.area())
    }
}

pub const UNIT: f64 = util::double(0.5);
