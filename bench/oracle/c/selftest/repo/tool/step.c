int step(void) { return 2; }
