#include <gtest/gtest.h>

#include "gridblas/gridblas.hpp"
#include "gridblas/matrix/eigen_interop.hpp"

TEST(Smoke, DcscCsrAgree) {
    using namespace gridblas;
    std::vector<lindex_t> r{2, 0, 1, 2}, c{0, 1, 1, 2};
    ValueArray<double> v(4);
    for (int i = 0; i < 4; ++i) v[i] = i + 1;
    auto d = Dcsc<double>::from_tuples(3, 4, r, c, v);
    auto s = Csr<double>::from_tuples(3, 4, r, c, v);
    EXPECT_EQ(to_csr(d), s);
    EXPECT_EQ(to_dcsc(s), d);
    Eigen::SparseMatrix<double> e = to_eigen<double>(d);
    EXPECT_EQ(e.coeff(2, 0), 1.0);
    auto t = transpose(d);
    EXPECT_EQ(t.nrows(), 4u);
    auto p = Dcsc<Pattern>::from_tuples(3, 4, r, c, ValueArray<Pattern>(4));
    EXPECT_EQ(p.nnz(), 4u);
    EXPECT_EQ(to_csr(p).nnz(), 4u);
    SparseVector<int> sv(10);
    sv.push_back(3, 7);
    EXPECT_EQ(to_sparse(to_bitmap(sv)), sv);
}
