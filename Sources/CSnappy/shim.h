// Snappy's C interface (Debian: libsnappy-dev): block compression for remote-write bodies.
#include <snappy-c.h>
