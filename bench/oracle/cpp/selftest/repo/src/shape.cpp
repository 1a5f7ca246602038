#include "shapes/shape.h"

#define TWICE(x) ((x) * 2)
#define AREA_OF(s) (s).area()

namespace shapes {

Square::Square(double side) : side_(side) {}

double Square::area() const { return side_ * side_; }

double total(const Shape& a, const Shape& b) { return a.area() + b.Shape::twice(); }

}  // namespace shapes

int main() {
    shapes::Square s(2);
    shapes::Square copy = s;
    auto c = std::make_unique<shapes::Circle>(1.0);
    double t = shapes::total(s, *c) + TWICE(s.area()) + AREA_OF(copy);
    return static_cast<int>(t + shapes::measure(s));
}
