/**
 * The setting declarations (name, type, default, derived default, documentation, checks) and
 * their resolution, the sources of a configuration (files, environment), the Kafka client
 * settings that pass through, and {@code InternalTopic}, the one place the application's own
 * topics are named. The lowest internal room: may use only the public leaves.
 */
package io.weir.internal.config;
