#pragma once
#include <memory>

namespace shapes {

class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
    double twice() const { return 2 * area(); }
};

class Square : public Shape {
public:
    explicit Square(double side);
    double area() const override;
private:
    double side_;
};

class Circle : public Shape {
public:
    Circle(double r) : r_(r) {}
    double area() const override { return 3 * r_ * r_; }
private:
    double r_;
};

double total(const Shape& a, const Shape& b);

template <typename T>
double measure(const T& t) { return t.area(); }

}  // namespace shapes
