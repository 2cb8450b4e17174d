/**
 * An application's validated configuration ({@link io.weir.config.WeirConfig}): its sources
 * (code, properties files, environment) and accessors. Reads the setting declarations of {@code
 * io.weir.internal.config}; every internal room below the root reads it.
 */
package io.weir.config;
