package io.weir.internal.http;

import java.util.List;

/**
 * The answer of a health probe.
 *
 * @param ok       whether the probe passes (HTTP 200) or not (HTTP 503)
 * @param state    the instance's state, as {@code WeirApp.State} names it ({@code RUNNING}, ...)
 * @param problems why it does not pass, most important first; empty when {@code ok}
 */
public record HealthReport(boolean ok, String state, List<Problem> problems) {

    public HealthReport {
        problems = List.copyOf(problems);
    }
}
