/**
 * Click sessions: session windows per visitor, merged as clicks arrive.
 */
package io.weir.samples.sessions;
