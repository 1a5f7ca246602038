export interface Shape {
  area(): number;
}

export function tag(name: string) {
  return (target: unknown) => target;
}

export function helper(): number {
  return 0;
}

export abstract class Base implements Shape {
  label = helper();
  onClick = () => helper();
  static count = helper();

  constructor(public size: number = helper()) {}

  abstract area(): number;

  describe(): number {
    return this.area();
  }

  get doubled(): number {
    return helper() * 2;
  }

  static make(): number {
    return helper();
  }

  #hidden(): number {
    return 1;
  }
}

@tag(helper().toString())
export class Square extends Base {
  area(): number {
    return 1;
  }

  describe(): number {
    return super.describe();
  }
}

export class Circle extends Base {
  constructor() {
    super(2);
  }

  area(): number {
    return 3;
  }
}

export class Big extends Square {}

export class Plain {}

export class Failure extends Error {}

export function conv(x: number): number;
export function conv(x: string): string;
export function conv(x: any): any {
  return x;
}

export const arrow = (s: Shape): number => {
  function inner(): number {
    return helper();
  }
  [1].map(() => helper());
  const obj = {
    m() {
      return helper();
    },
  };
  obj.m();
  return s.area() + inner();
};

export function run(sq: Square): number {
  sq.describe();
  new Big(1).area();
  new Plain();
  new Failure('x');
  new Circle();
  Base.make();
  conv(1);
  return arrow(sq);
}

run(new Square(1));
