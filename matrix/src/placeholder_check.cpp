// Compile check of the header-only local formats (removed once real sources exist).
#include "gridblas/matrix/convert.hpp"
template class gridblas::Dcsc<double>;
template class gridblas::Csr<double>;
template class gridblas::Dcsc<gridblas::Pattern>;
template class gridblas::Csr<gridblas::Pattern>;
