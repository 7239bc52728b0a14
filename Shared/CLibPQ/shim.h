// libpq, PostgreSQL's own client library (Debian's libpq-dev), found through pkg-config.
#include <libpq-fe.h>
