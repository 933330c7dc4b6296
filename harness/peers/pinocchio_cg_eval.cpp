/*
 * pinocchio-cg: the timed call around a generated library, as Pinocchio's
 * CodeGen classes make it (pinocchio/src/codegen/cppadcg/algorithm/
 * code-generator-{base,algo}.hxx, 4.1.0): loadLib opens the library with
 * CppADCodeGen's LinuxDynamicLib and takes the function's GenericModel;
 * evalFunction(q, v, a) copies the inputs into one vector x, calls the
 * generated ForwardZero(x, y) and copies y into the class's outputs
 * (dtau_dq, dtau_dv, dtau_da as row-major nv x nv blocks of y; M and Minv
 * from the packed upper triangle; tau and qdd as y itself).
 *
 * The classes themselves are not instantiated here: their constructors and
 * buildMap record Pinocchio's algorithms on CppAD<CG<double>> scalars,
 * minutes of compiling that only generating needs (pinocchio_cg_gen.cpp,
 * the generator, built apart).  What is timed is the same: the same
 * copies, the same GenericModel::ForwardZero on the same library, with
 * x and y members made once, as a class holds them.
 */
#include <cppad/cg.hpp>

#include "pinocchio_cg.hpp"

#include <stdexcept>

namespace rbd_cg {
namespace {

typedef Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> RowMatrixXd;

/* out[i + nv*j] = X(of[i], of[j]): user numbering, column-major. */
template<typename M> void permute_out(const M &X, const std::vector<int> &of, double *out)
{
    const int n = (int)of.size();
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) out[i + (size_t)n * j] = X(of[i], of[j]);
}

/* A triangle the class writes (i <= j), mirrored. */
template<typename M> void upper_out(const M &X, const std::vector<int> &of, double *out)
{
    const int n = (int)of.size();
    MatrixXd S = X.template triangularView<Eigen::Upper>();
    S.triangularView<Eigen::StrictlyLower>() = S.transpose();
    permute_out(S, of, out);
}

template<Func F> struct EvalT final : Eval {
    int nq, nv;
    VectorXd x, y;                 /* CodeGenBase's y, the class's x */
    MatrixXd out0, out1, out2;     /* dtau_dq / dddq_dq, M, Minv; dtau_dv / dddq_dv; dtau_da / dddq_dtau */
    VectorXd res;                  /* CodeGenRNEA's and CodeGenABA's res */
    std::unique_ptr<CppAD::cg::DynamicLib<double>> lib;
    std::unique_ptr<CppAD::cg::GenericModel<double>> fun;

    EvalT(int nq_, int nv_) : nq(nq_), nv(nv_)
    {
        const bool with_v = F != MINV && F != CRBA;
        x = VectorXd::Zero(with_v ? nq + 2 * nv : nq);
        const int ny = F == RNEA_DERIVS || F == ABA_DERIVS ? 3 * nv * nv
                       : F == RNEA || F == ABA             ? nv
                                                           : nv * (nv + 1) / 2;
        y = VectorXd::Zero(ny);
        if (F == MINV || F == CRBA || F == RNEA_DERIVS || F == ABA_DERIVS) out0 = MatrixXd::Zero(nv, nv);
        if (F == RNEA_DERIVS || F == ABA_DERIVS) { out1 = MatrixXd::Zero(nv, nv); out2 = MatrixXd::Zero(nv, nv); }
    }

    void open(const std::string &so) override
    {
        lib.reset(new CppAD::cg::LinuxDynamicLib<double>(so));
        fun = lib->model(cg_function[F]);
        if (!fun) throw std::runtime_error(std::string("no model ") + cg_function[F] + " in it");
        if (fun->Domain() != (size_t)x.size() || fun->Range() != (size_t)y.size())
            throw std::runtime_error(std::string(cg_function[F]) + " maps " + std::to_string(fun->Domain()) + " to " +
                                     std::to_string(fun->Range()) + " values, not " + std::to_string(x.size()) +
                                     " to " + std::to_string(y.size()));
    }

    void call(const Col &q, const Col &v, const Col &a, const Col &tau) override
    {
        x.head(nq) = q;
        if constexpr (F == RNEA_DERIVS || F == RNEA) { x.segment(nq, nv) = v; x.segment(nq + nv, nv) = a; }
        if constexpr (F == ABA_DERIVS || F == ABA) { x.segment(nq, nv) = v; x.segment(nq + nv, nv) = tau; }
        fun->ForwardZero(x, y);
        if constexpr (F == RNEA_DERIVS || F == ABA_DERIVS) {
            out0 = Eigen::Map<RowMatrixXd>(y.data(), nv, nv);
            out1 = Eigen::Map<RowMatrixXd>(y.data() + nv * nv, nv, nv);
            out2 = Eigen::Map<RowMatrixXd>(y.data() + 2 * nv * nv, nv, nv);
        } else if constexpr (F == RNEA || F == ABA) {
            res = y;
        } else {
            Eigen::Index k = 0;   /* CodeGenCRBA / CodeGenMinv: the upper triangle, row by row */
            for (Eigen::Index i = 0; i < nv; ++i)
                for (Eigen::Index j = i; j < nv; ++j) out0(i, j) = y[k++];
        }
    }

    void result(const std::vector<int> &of, double *vec, double *m0, double *m1, double *m2) override
    {
        if constexpr (F == RNEA_DERIVS) {
            permute_out(out0, of, m0);
            permute_out(out1, of, m1);
        } else if constexpr (F == ABA_DERIVS) {
            permute_out(out0, of, m0);
            permute_out(out1, of, m1);
            permute_out(out2, of, m2);
        } else if constexpr (F == RNEA || F == ABA) {
            for (size_t i = 0; i < of.size(); i++) vec[i] = res[of[i]];
        } else {
            upper_out(out0, of, m0);
        }
    }
};

} // namespace

std::unique_ptr<Eval> make_eval(Func f, int nq, int nv)
{
    switch (f) {
    case RNEA_DERIVS: return std::make_unique<EvalT<RNEA_DERIVS>>(nq, nv);
    case ABA_DERIVS: return std::make_unique<EvalT<ABA_DERIVS>>(nq, nv);
    case RNEA: return std::make_unique<EvalT<RNEA>>(nq, nv);
    case ABA: return std::make_unique<EvalT<ABA>>(nq, nv);
    case MINV: return std::make_unique<EvalT<MINV>>(nq, nv);
    case CRBA: return std::make_unique<EvalT<CRBA>>(nq, nv);
    default: return nullptr;
    }
}

} // namespace rbd_cg
