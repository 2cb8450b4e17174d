/**
 * Hourly counts of posts per hashtag in one topology: an alert as soon as an hour's count passes
 * a threshold (early results), and each hour's final count when the watermark passes its end.
 */
package io.weir.samples.hourly;
