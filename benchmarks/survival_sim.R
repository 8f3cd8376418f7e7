# The survival NPDR authors' simulated data sets, drawn by R's random
# generator as their sweep scripts draw them (Kampmeyer et al. 2026;
# pak611/survivalNPDR, scripts/simulation/sim_utils.R,
# main_effect_size_sweep_rsurv.r, interaction_effect_size_sweep_rsurv.r), so
# that bench_survival_auprc.py scores the very data sets of their published
# figures. Base R only: no package of theirs is needed.
#
#   Rscript survival_sim.R DESIGN N P BETA SIMS OUT
#
# DESIGN "main" or "interactions"; N instances, P attributes, BETA the effect
# size, SIMS data sets (sim_id 1..SIMS); OUT a folder that gets, for each,
# simNN.bin: N rows of P + 3 float64 values (row-major, little-endian), the
# attributes, the time, the status (1: an event) and the fold (1..10) the
# instance is held out in.
#
# The draws, in the order the scripts make them:
# * set.seed(2467 + 997 (sim_id - 1)); the N x P attributes by rnorm, filled
#   column by column;
# * set.seed(that seed + 1); u = runif(N); the lognormal accelerated failure
#   time T = Q(u) exp(lp), Q the quantile of the upper tail of
#   lognormal(log 100, 0.25) and lp the linear predictor: BETA on attributes
#   1..5 and -BETA on 6..10 (main), or BETA on the products of attributes
#   (1, 2), (3, 4), ..., (19, 20) (interactions) -- what rsurv::raftreg
#   computes for an accelerated failure time model; censored at 125;
# * set.seed(123 + sim_id); ten folds as caret::createFolds(status, 10)
#   deals them: the status cut at its distinct quantiles (0, 1/4, ..., 1)
#   into groups, and within each group, in the order of the groups' labels,
#   the folds 1..10 repeated as often as they fit, the rest drawn by
#   sample(10, rest), the whole shuffled by sample.
args <- commandArgs(trailingOnly = TRUE)
design <- args[1]
n <- as.integer(args[2])
p <- as.integer(args[3])
beta <- as.numeric(args[4])
sims <- as.integer(args[5])
out <- args[6]
MEANLOG <- log(100)
SDLOG <- 0.25
MAX_TIME <- 125
K <- 10L

linear_predictor <- function(X) {
  if (design == "main") {
    return(as.numeric(X[, 1:10] %*% rep(c(beta, -beta), each = 5)))
  }
  first <- seq(1, by = 2, length.out = 10)
  as.numeric((X[, first] * X[, first + 1]) %*% rep(beta, 10))
}

folds <- function(y) {
  groups <- min(5L, max(2L, length(y) %/% K))
  cuts <- unique(quantile(y, probs = seq(0, 1, length.out = groups)))
  label <- as.character(cut(y, cuts, include.lowest = TRUE))
  fold <- integer(length(y))
  for (group in levels(factor(label))) {
    rows <- which(label == group)
    size <- length(rows)
    if (size >= K) {
      deck <- rep(seq_len(K), size %/% K)
      if (size %% K > 0) deck <- c(deck, sample(seq_len(K), size %% K))
      fold[rows] <- sample(deck)
    } else {
      fold[rows] <- sample(seq_len(K), size = size)
    }
  }
  fold
}

dir.create(out, showWarnings = FALSE, recursive = TRUE)
for (sim_id in seq_len(sims)) {
  seed <- 2467L + (sim_id - 1L) * 997L
  set.seed(seed)
  X <- matrix(rnorm(n * p), nrow = n, ncol = p)
  set.seed(seed + 1)
  true_time <- qlnorm(runif(n), MEANLOG, SDLOG, lower.tail = FALSE) *
    exp(linear_predictor(X))
  status <- as.integer(true_time <= MAX_TIME)
  set.seed(123L + sim_id)
  if (min(sum(status), sum(status == 0)) < K) stop("fewer than ten events or censored times")
  values <- cbind(X, pmin(true_time, MAX_TIME), status, folds(status))
  writeBin(as.vector(t(values)), file.path(out, sprintf("sim%02d.bin", sim_id)),
           endian = "little")
}
