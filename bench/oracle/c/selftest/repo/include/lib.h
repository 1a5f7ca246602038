int parse(int x);
void log_value(int v);
#define LOG(x) log_value(x)
static inline int twice(int x) { return x * 2; }
