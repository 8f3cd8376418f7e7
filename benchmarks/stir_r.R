# STIR of the authors' R package (insilico/stir), the reference outputs of
# tests/data/stir.
#
# The package's R/stir.R is sourced as it is (SOURCE: its path); the data
# are tab-separated with a header and the class in "Class" (gzipped or not).
#
#   Rscript stir_r.R SOURCE DATA METHOD K OUT
#
# find.neighbors(X, Class, metric = "manhattan", method = METHOD, k = K)
# (its defaults: sd.vec = NULL, sd.frac = 0.5) and stir() on its pairs;
# writes OUT: one row per attribute in the data's order, its t, p (one-sided,
# P(T >= t)), score (R's vecW, mu.misses - mu.hits: relief.score times the
# number of instances), and the numbers of hit and miss pairs, to 17
# significant digits.
args <- commandArgs(trailingOnly = TRUE)
source(args[1])
path <- args[2]
method <- args[3]
k <- as.integer(args[4])
dat <- if (grepl("\\.gz$", path)) read.delim(gzfile(path)) else read.delim(path)
X <- as.matrix(dat[, names(dat) != "Class"])
# find.neighbors matches the SURF family's neighbours by row name
rownames(X) <- seq_len(nrow(X))
Class <- dat[, "Class"]
pairs <- find.neighbors(X, Class, metric = "manhattan", method = method,
                        k = k)
result <- stir(X, pairs, method = method, k = k, metric = "manhattan")
tests <- result$STIR_T[colnames(X), ]
score <- result$OriRelief[colnames(X), "relief.score"] * nrow(X)
fmt <- function(x) sprintf("%.17g", x)
out <- data.frame(attribute = colnames(X), t = fmt(tests[, "t.stat"]),
                  p = fmt(tests[, "t.pval"]), score = fmt(score),
                  n_hits = nrow(pairs[[1]]), n_misses = nrow(pairs[[2]]))
write.csv(out, args[5], row.names = FALSE, quote = FALSE)
