/**
 * Order pricing: orders enriched by an HTTP pricing service through an asynchronous step, then
 * totalled per customer, exactly once.
 */
package io.weir.samples.pricing;
