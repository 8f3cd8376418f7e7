# reGAIN, EpistasisRank and EpistasisKatz of the authors' R code
# (insilico/npdr, R/regain.R), the reference of tests/core/test_regain.py.
#
# R/regain.R is sourced as it is; it calls glm2::glm2 (CRAN's glm2 1.2.1,
# installed from its source into a library named by R_LIBS). Nothing of
# either is stored here: only the numbers they compute (README.md).
#
#   Rscript regain_r.R REGAIN_R DATA FORMAT COVARIATES FAMILY OUT [RANKS]
#
# DATA: a gzipped tab-separated table whose class is the column "Class"
# (FORMAT "archive", the ReBATE benchmark's files), or an Orange .tab file
# whose first column is the class (FORMAT "orange:VALUE", the class value
# coded 1). COVARIATES: comma-separated columns moved to the covariates'
# place (after the attributes), or "none". FAMILY "binomial" runs regain()
# as it is; "gaussian" runs its getMainEffects() as it is and, as
# regain() fits every pair's model as a logistic regression whatever the
# family, the pairs' linear models with lm(). OUT: one row per pair of
# attributes (first <= second), 17 significant digits. RANKS (binomial):
# EpistasisRank() and EpistasisKatz() with their defaults on regain()'s
# matrix of statistics ("stdbetas"), in the attributes' order.
args <- commandArgs(trailingOnly = TRUE)
source(args[1])
path <- args[2]
if (args[3] == "archive") {
  dat <- read.delim(gzfile(path))
} else {
  names <- strsplit(readLines(path, n = 1), "\t")[[1]]
  dat <- read.delim(path, header = FALSE, skip = 3, col.names = names)
  positive <- sub("^orange:", "", args[3])
  dat$Class <- as.integer(dat[[names[1]]] == positive)
  dat[[names[1]]] <- NULL
}
covars <- if (args[4] == "none") character(0) else strsplit(args[4], ",")[[1]]
attrs <- setdiff(colnames(dat), c(covars, "Class"))
dat <- dat[, c(attrs, covars, "Class")]
family <- args[5]

fmt <- function(x) sprintf("%.17g", x)
rows <- NULL
add <- function(i, j, coef, se, stat, p, conv) {
  rows <<- rbind(rows, data.frame(
    first = attrs[i], second = attrs[j], coefficient = fmt(coef),
    standard_error = fmt(se), statistic = fmt(stat), p = fmt(p),
    converged = as.integer(conv)))
}
if (family == "binomial") {
  res <- regain(dat, "Class", attrs, reg.fam = "binomial",
                nCovs = length(covars))
  for (i in seq_along(attrs)) for (j in i:length(attrs)) {
    add(i, j, res$raw.coefs[i, j], res$stderrs[i, j], res$stdbetas[i, j],
        res$pvals[i, j], res$convergence[i, j])
  }
  if (length(args) >= 7) {
    G <- res$stdbetas
    er <- EpistasisRank(G)
    kr <- EpistasisKatz(G)
    ranks <- data.frame(attribute = attrs,
                        epistasis_rank = fmt(er$ER[match(attrs, er$gene)]),
                        epistasis_katz = fmt(kr$KR[match(attrs, kr$gene)]))
    write.csv(ranks, args[7], row.names = FALSE, quote = FALSE)
  }
} else {
  mains <- getMainEffects(dat, indVarNames = attrs, depVarName = "Class",
                          reg.fam = family, nCovs = length(covars))
  for (i in seq_along(attrs)) for (j in i:length(attrs)) {
    if (i == j) {
      m <- mains[, i]
      add(i, i, m$coef, m$se, m$stdbeta, m$pval, m$converged)
    } else {
      terms <- paste(c(sprintf("`%s` * `%s`", attrs[i], attrs[j]), covars),
                     collapse = " + ")
      fit <- lm(as.formula(paste("Class ~", terms)), data = dat)
      s <- summary(fit)$coefficients
      k <- nrow(s)
      add(i, j, s[k, 1], s[k, 2], s[k, 3], s[k, 4], TRUE)
    }
  }
}
write.csv(rows, args[6], row.names = FALSE, quote = FALSE)
