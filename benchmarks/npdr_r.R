# NPDR of the authors' R package (insilico/npdr), for benchmarks/bench_npdr.py
# and the reference outputs of tests/data/npdr.
#
# The package is sourced, not installed (its Imports include PRROC, which
# Debian does not package): SOURCES is a folder holding its R/utils.R,
# R/nearestNeighbors.R and R/npdr.R, with "npdr::knnSURF(" replaced by
# "knnSURF(" (npdr.R, where it only feeds a verbose message). dplyr and rlang
# from the distribution (r-cran-dplyr, r-cran-rlang).
#
#   Rscript npdr_r.R time SOURCES DATA OUT      npdr() with its defaults on
#       DATA (tab-separated, a header, the class in "Class"); prints
#       "elapsed SECONDS" and writes OUT: attribute, beta, z, p in data order
#   Rscript npdr_r.R reference SOURCES DATA TYPE OUT    the columns of
#       tests/data/npdr (TYPE "binomial" or "lm"), with the same pairs fitted
#       to convergence ("_tight")
suppressPackageStartupMessages({library(dplyr); library(rlang)})
args <- commandArgs(trailingOnly = TRUE)
mode <- args[1]
for (file in c("utils.R", "nearestNeighbors.R", "npdr.R")) {
  source(file.path(args[2], file))
}

fmt <- function(x) if (is.numeric(x)) sprintf("%.17g", x) else x
write.full <- function(df, file) {
  out <- as.data.frame(lapply(df, fmt), stringsAsFactors = FALSE)
  write.csv(out, file, row.names = FALSE, quote = FALSE)
}

# npdr() with every default spelled out (npdr.R l.151-164)
run.npdr <- function(dat, type) {
  npdr("Class", dat, regression.type = type, attr.diff.type = "numeric-abs",
       nbd.method = "multisurf", nbd.metric = "manhattan", knn = 0,
       msurf.sd.frac = 0.5, covars = "none", padj.method = "bonferroni",
       verbose = FALSE, use.glmnet = FALSE, neighbor.sampling = "none",
       separate.hitmiss.nbds = FALSE, fast.reg = FALSE, fast.dist = FALSE,
       dopar.nn = FALSE, dopar.reg = FALSE, unique.dof = FALSE)
}

read.data <- function(path) {
  if (grepl("\\.gz$", path)) read.delim(gzfile(path)) else read.delim(path)
}

if (mode == "time") {
  dat <- read.data(args[3])
  attrs <- setdiff(colnames(dat), "Class")
  elapsed <- system.time(res <- run.npdr(dat, "binomial"))[["elapsed"]]
  cat("elapsed", elapsed, "\n")
  rownames(res) <- res$att
  res <- res[attrs, ]
  write.full(data.frame(attribute = attrs, beta = res$beta.raw.att,
                        z = res$beta.Z.att, p = res$pval.att), args[4])
} else if (mode == "reference") {
  dat <- read.data(args[3])
  type <- args[4]
  attrs <- setdiff(colnames(dat), "Class")
  res <- run.npdr(dat, type)
  rownames(res) <- res$att
  res <- res[attrs, ]
  pairs <- nearestNeighbors(dat[, attrs], nbd.method = "multisurf",
                            nbd.metric = "manhattan", sd.frac = 0.5, k = 0)
  y <- dat$Class
  pd <- if (type == "lm") abs(y[pairs[, 1]] - y[pairs[, 2]]) else
    as.factor(ifelse(y[pairs[, 1]] == y[pairs[, 2]], 0, 1))
  # the same pairs fitted to convergence, the standard error from the
  # information matrix at the final coefficients (summary.glm's comes from
  # the weights of the iterate before glm's last update)
  tight <- t(sapply(attrs, function(a) {
    x <- dat[[a]]
    d <- data.frame(attr.diff.vec = abs(x[pairs[, 1]] - x[pairs[, 2]]),
                    pheno.diff.vec = pd)
    if (type == "lm") {
      m <- lm(pheno.diff.vec ~ ., data = d)
      cf <- summary(m)$coefficients
      b <- cf[2, 1]; se <- cf[2, 2]
    } else {
      m <- suppressWarnings(glm(pheno.diff.vec ~ ., family = binomial(link = logit),
                                data = d,
                                control = glm.control(epsilon = 1e-15, maxit = 100)))
      A <- cbind(1, d$attr.diff.vec)
      mu <- plogis(drop(A %*% coef(m)))
      b <- coef(m)[[2]]
      se <- sqrt(solve(crossprod(A, A * (mu * (1 - mu))))[2, 2])
    }
    c(b, se, b / se, pt(b / se, m$df.residual, lower.tail = FALSE))
  }))
  n.pairs <- nrow(pairs)
  out <- data.frame(attribute = attrs, beta = res$beta.raw.att,
                    se = res$beta.raw.att / res$beta.Z.att,
                    z_or_t = res$beta.Z.att, p = res$pval.att,
                    p_bonferroni = res$pval.adj, beta0 = res$beta.0,
                    p0_two_sided = res$pval.0, df_residual = n.pairs - 2,
                    n_pairs = n.pairs,
                    n_unique_pairs = nrow(uniqueNeighbors(pairs)),
                    beta_tight = tight[, 1], se_tight = tight[, 2],
                    z_or_t_tight = tight[, 3], p_tight = tight[, 4])
  if (type == "lm") out$R_sqr <- res$R.sqr
  write.full(out, args[5])
}
