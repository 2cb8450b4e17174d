package io.weir.internal.topology;

import java.util.Map;

/**
 * A processor supplier whose step has options worth showing in {@code /topology} and {@code weir
 * topology show} (an asynchronous step's order, in-flight bound, time-out, attempts): the
 * description lists them under the node's {@code options}.
 */
public interface DescribedStep {

    /** The step's kind, for example {@code async}. */
    String stepKind();

    /** The options, by name, in the order to show them; values are strings or numbers. */
    Map<String, Object> stepOptions();
}
