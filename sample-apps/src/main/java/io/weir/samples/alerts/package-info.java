/**
 * Temperature alerts: the stateless quick-start sample (readings above a threshold become
 * alerts).
 */
package io.weir.samples.alerts;
