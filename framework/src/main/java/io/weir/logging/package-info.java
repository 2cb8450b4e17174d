/**
 * What applications name in their {@code logback.xml}: filters that drop the Kafka clients'
 * expected noise and fold repeated messages, and the default configuration Weir installs when an
 * application has none. Uses nothing of Weir.
 */
package io.weir.logging;
