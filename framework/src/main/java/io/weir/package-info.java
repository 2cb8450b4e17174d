/**
 * The entry points: {@link io.weir.TopologyBuilder} declares a topology, {@link io.weir.WeirApp}
 * runs it (the composition root that wires every room and holds the instance's life cycle), and
 * {@link io.weir.testdriver.TestDriver} runs it without a broker for unit tests. The top room: it may use
 * every other; none may use it.
 */
package io.weir;
