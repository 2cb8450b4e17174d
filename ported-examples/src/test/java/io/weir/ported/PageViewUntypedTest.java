package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.ported.PageViewModel.Count;
import io.weir.ported.PageViewModel.Event;
import io.weir.testdriver.TestDriver;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The untyped page-view port on the TestDriver, with {@link PageViewTypedTest}'s input as JSON
 * trees and its scaled-down windows (see there why).
 */
class PageViewUntypedTest {

    @Test
    void countsViewsPerRegionInHoppingWindows() {
        try (TestDriver driver = TestDriver.builder(PageViewUntyped.topology(PageViewTypedTest.TEST_WINDOWS))
                .build()) {
            for (Event e : PageViewModel.EVENTS) {
                ObjectNode value = JsonNodeFactory.instance.objectNode();
                if (e.profile()) {
                    value.put("region", e.regionOrPage()).put("timestamp", e.timestamp());
                    driver.pipe(PageViewUntyped.USER_PROFILES, e.user(), value, 0L);
                } else {
                    value.put("user", e.user()).put("page", e.regionOrPage()).put("timestamp", e.timestamp());
                    driver.pipe(PageViewUntyped.PAGE_VIEWS, e.user(), value, 0L);
                }
            }
            List<Count> counts =
                    driver.output(PageViewUntyped.OUTPUT, PageViewUntyped.JSON, PageViewUntyped.JSON).stream()
                            .map(r -> {
                                JsonNode key = r.key();
                                assertThat(key.size()).isEqualTo(2);
                                assertThat(r.value().size()).isEqualTo(1);
                                return new Count(
                                        key.get("window-start").longValue(),
                                        key.get("region").textValue(),
                                        r.value().get("count").longValue());
                            })
                            .toList();
            assertThat(counts).containsExactlyElementsOf(PageViewModel.expected(5_000, 1_000));
        }
    }
}
