#include "lib.h"

static int helper(int x) { return x + 1; }

void log_value(int v) { (void)v; }

int parse(int x) {
    LOG(helper(x));
    return twice(helper(x));
}
