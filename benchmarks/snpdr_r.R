# Survival NPDR of the authors' R code (pak611/survivalNPDR, sNPDR/R/npdr_surv.R
# and sNPDR/R/KM_estimate.R, sourced as they are), for the reference outputs of
# tests/data/survival and for benchmarks/bench_survival.py.
#
# npdr_surv() finds its neighbours with npdr::nearestNeighbors of the NPDR
# package (insilico/npdr). That package imports PRROC, which Debian does not
# package, so this script installs, into a temporary library, a package
# "npdr" holding the package's R/utils.R and R/nearestNeighbors.R as they are
# (importing dplyr and rlang, exporting nearestNeighbors): the same code the
# survival functions call. dplyr, rlang, survival and glmnet from the
# distribution (r-cran-dplyr, r-cran-rlang, r-cran-survival, r-cran-glmnet).
#
#   Rscript snpdr_r.R reference NPDR_SOURCES SNPDR_SOURCES DATA OUT
#       npdr_surv() under every setting of tests/data/survival/README.md on
#       DATA (a CSV: attributes, covariates age and sex, time, status); OUT
#       gets one row per setting and attribute, and OUT with "_times" before
#       ".csv" the Kaplan-Meier imputed times of kmImputeTimes()
#   Rscript snpdr_r.R time NPDR_SOURCES SNPDR_SOURCES DATA DIFF KM OUT
#       npdr_surv() on DATA with diff.type DIFF and km.impute KM (TRUE or
#       FALSE); prints "elapsed SECONDS" and writes OUT: feature, beta, stat,
#       pval
#   Rscript snpdr_r.R lasso NPDR_SOURCES SNPDR_SOURCES DATA OUT
#       npdr_surv(regression = "binomial", regularize = TRUE) under the lasso
#       settings of tests/data/survival/README.md on DATA (set.seed(1) before
#       each, for cv.glmnet's folds); OUT gets one row per setting and
#       attribute: the beta npdr_surv() returns, the lambda cv.glmnet
#       chose (lambda.1se, or lambda.min where the setting says), its
#       intercept and the first of its path, lambda_max, and beta_tight and intercept_tight: glmnet
#       refitted to thresh = 1e-22 on the same pair diffs, outcome and lambda
#       path (the optimum that glmnet's default thresh = 1e-7 approaches)
# NPDR_SOURCES is the R/ folder of insilico/npdr, SNPDR_SOURCES the sNPDR/R/
# folder of pak611/survivalNPDR.
suppressPackageStartupMessages({library(dplyr); library(rlang);
  library(survival)})
args <- commandArgs(trailingOnly = TRUE)
mode <- args[1]

install.npdr <- function(sources) {
  pkg <- file.path(tempdir(), "npdr")
  dir.create(file.path(pkg, "R"), recursive = TRUE, showWarnings = FALSE)
  for (file in c("utils.R", "nearestNeighbors.R")) {
    file.copy(file.path(sources, file), file.path(pkg, "R", file),
              overwrite = TRUE)
  }
  writeLines(c("Package: npdr", "Version: 0.0.0.9000",
               "Title: NPDR's neighbours", "Description: Its neighbours.",
               "License: MIT", "Imports: dplyr, rlang"),
             file.path(pkg, "DESCRIPTION"))
  writeLines(c("import(dplyr)", "importFrom(rlang,check_installed)",
               "importFrom(stats,dist,sd,pnorm)", "export(nearestNeighbors)"),
             file.path(pkg, "NAMESPACE"))
  lib <- file.path(tempdir(), "lib")
  dir.create(lib, showWarnings = FALSE)
  out <- system2(file.path(R.home("bin"), "R"),
                 c("CMD", "INSTALL", "--no-docs", "--no-test-load",
                   paste0("--library=", lib), pkg), stdout = TRUE, stderr = TRUE)
  .libPaths(c(lib, .libPaths()))
  invisible(out)
}

install.npdr(args[2])
for (file in c("npdr_surv.R", "KM_estimate.R")) source(file.path(args[3], file))

fmt <- function(x) if (is.numeric(x)) sprintf("%.17g", x) else x
write.full <- function(df, file) {
  out <- as.data.frame(lapply(df, fmt), stringsAsFactors = FALSE)
  write.csv(out, file, row.names = FALSE, quote = FALSE)
}
outcome <- c(time_var = "time", status_var = "status")

# the settings of tests/data/survival/README.md
SETTINGS <- list(
  lm_absolute = list(diff.type = "absolute"),
  lm_signed_km = list(diff.type = "signed", km.impute = TRUE),
  lm_signed_km_covariates = list(diff.type = "signed", km.impute = TRUE,
                                 covariates = c("age", "sex")),
  lm_absolute_unfiltered = list(diff.type = "absolute", nbd.filter = FALSE),
  lm_signed_relieff = list(diff.type = "signed", nbd.method = "relieff",
                           knn = 10),
  binomial_absolute = list(diff.type = "absolute", regression = "binomial"),
  binomial_signed_km = list(diff.type = "signed", regression = "binomial",
                            km.impute = TRUE))

if (mode == "reference") {
  dat <- read.csv(args[4])
  rows <- list()
  for (name in names(SETTINGS)) {
    s <- SETTINGS[[name]]
    # the covariates are kept out of the distance of the other settings too
    used <- if (is.null(s$covariates)) dat[, setdiff(colnames(dat),
                                                      c("age", "sex"))] else dat
    res <- do.call(npdr_surv, c(list(outcome = outcome, dataset = used), s))
    res$setting <- name
    rows[[name]] <- res[, c("setting", "feature", "beta", "stat", "pval",
                            "pval_adj")]
  }
  write.full(do.call(rbind, rows), args[5])
  write.full(data.frame(time = dat$time, status = dat$status,
                        imputed = kmImputeTimes(dat$time, dat$status)),
             sub("\\.csv$", "_times.csv", args[5]))
} else if (mode == "lasso") {
  LASSO <- list(
    binomial_absolute_lasso = list(diff.type = "absolute",
                                   glmnet.lam = "lambda.min"),
    binomial_signed_km_lasso = list(diff.type = "signed", km.impute = TRUE))
  dat <- read.csv(args[4])
  dat <- dat[, setdiff(colnames(dat), c("age", "sex"))]
  # what npdr_surv() hands to cv.glmnet and gets back, kept as it returns
  trace("cv.glmnet", where = asNamespace("glmnet"), print = FALSE,
        exit = quote(assign("seen", list(x = x, y = y, fit = returnValue()),
                            envir = globalenv())))
  rows <- list()
  for (name in names(LASSO)) {
    set.seed(1)
    res <- do.call(npdr_surv, c(list(outcome = outcome, dataset = dat,
                                     regression = "binomial",
                                     regularize = TRUE), LASSO[[name]]))
    which <- if (is.null(LASSO[[name]]$glmnet.lam)) "lambda.1se" else
      LASSO[[name]]$glmnet.lam
    lam <- seen$fit[[which]]
    tight <- glmnet::glmnet(seen$x, seen$y, family = "binomial", alpha = 1,
                            lambda = seen$fit$lambda, thresh = 1e-22,
                            maxit = 1e7)
    exact <- as.numeric(coef(tight, s = lam))
    res <- res[match(colnames(seen$x), res$feature), ]
    rows[[name]] <- data.frame(
      setting = name, feature = res$feature, beta = res$beta, lambda = lam,
      lambda_max = seen$fit$lambda[1],
      intercept = as.numeric(coef(seen$fit, s = which))[1],
      beta_tight = exact[-1], intercept_tight = exact[1],
      n_pairs = length(seen$y))
  }
  write.full(do.call(rbind, rows), args[5])
} else if (mode == "time") {
  dat <- read.csv(args[4])
  elapsed <- system.time(
    res <- npdr_surv(outcome = outcome, dataset = dat, diff.type = args[5],
                     km.impute = as.logical(args[6])))[["elapsed"]]
  cat("elapsed", elapsed, "\n")
  write.full(res[, c("feature", "beta", "stat", "pval")], args[7])
}
