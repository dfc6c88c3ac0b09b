// omrun: loads an OpenATC OM and runs it on the CPU (see README.md "omrun").
#include "openatc/omrun/driver.h"

int main(int argc, char **argv) { return openatc::omrun::RunOmrun(argc, argv); }
