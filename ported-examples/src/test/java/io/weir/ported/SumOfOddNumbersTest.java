package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import org.junit.jupiter.api.Test;

/**
 * The sum port on the TestDriver, with the input and expected output of Confluent's
 * {@code SumLambdaIntegrationTest}: 1 to 10 in, the running sums of the odd ones out.
 */
class SumOfOddNumbersTest {

    @Test
    void sumsTheOddNumbers() {
        try (TestDriver driver = TestDriver.builder(SumOfOddNumbers.topology()).build()) {
            for (int n = 1; n <= 10; n++) {
                driver.pipe(SumOfOddNumbers.NUMBERS, null, n, n);
            }
            assertThat(Outputs.pairs(
                            driver.output(SumOfOddNumbers.SUM_OF_ODD_NUMBERS, Serdes.integers(), Serdes.integers())))
                    .containsExactly(
                            KeyValue.of(1, 1),
                            KeyValue.of(1, 4),
                            KeyValue.of(1, 9),
                            KeyValue.of(1, 16),
                            KeyValue.of(1, 25));
        }
    }
}
