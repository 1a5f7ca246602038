import functools
from typing import overload


def deco(fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        return fn(*a, **k)
    return wrapper


def make_default():
    return 1


class Base:
    def __init__(self, x=make_default()):
        self.x = x

    def area(self):
        return 0

    def describe(self):
        return self.area()

    @property
    def size(self):
        return helper()

    @staticmethod
    def util():
        return helper()

    @classmethod
    def build(cls):
        return cls()

    def __secret(self):
        return 1


class Square(Base):
    side = helper_in_class = None
    registry = make_default()

    def area(self):
        return super().area() + 1

    def util():
        return 2


class Circle(Base):
    def __init__(self):
        super().__init__(2)

    def area(self):
        return 3


class Plain:
    pass


class Child(Plain):
    pass


def helper():
    return 0


@overload
def conv(x: int) -> int: ...
@overload
def conv(x: str) -> str: ...
def conv(x):
    return x


@deco
def decorated():
    def inner():
        return helper()
    f = lambda: helper()
    return inner() + f()


def run(shape: Base):
    shape.describe()
    shape.area()
    shape.size
    Base.util()
    Base.area(shape)
    Square().area()
    Base.build()
    Child()
    conv(1)
    decorated()
    return [s.area() for s in (Square(), Circle())]


class Caller:
    def go(self):
        self.__secret2()
        return Circle().area()

    def __secret2(self):
        return helper()


run(Circle())
