/** Fraud detection, one of the seeds' applications: card transactions checked against the card's history. */
package io.weir.samples.fraud;
