// atc: OpenATC's offline model compiler (command line as CANN's ATC; see README.md "atc" and
// docs/atc-flags.md).
#include "openatc/atc/driver.h"

int main(int argc, char **argv) { return openatc::atc::RunAtc(argc, argv); }
