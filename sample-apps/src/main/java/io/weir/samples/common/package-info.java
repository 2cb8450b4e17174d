/**
 * What the samples share: running against an embedded or given broker, options, generators and
 * pacing of input, tailing committed output, and checking window results against a model.
 */
package io.weir.samples.common;
