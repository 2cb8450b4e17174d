/**
 * The {@code weir} command: describe an application, plan and create its topics, reset it for a
 * replay, compare outputs, show and diff topologies, take, list, describe, restore and delete
 * savepoints. Uses the framework, internals included (it is Weir's own tool).
 */
package io.weir.cli;
