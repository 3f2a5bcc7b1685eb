package wsjava.bench.deflate;

import java.util.Locale;
import java.util.Random;

/**
 * Text shaped like what a WL kernel sends a notebook: InputForm of graphics with numbers that
 * differ, so it compresses the way real traffic does (a few times over), not like one string
 * repeated.
 */
final class WlExpressionText {

    private WlExpressionText() {
    }

    static String of(int size, long seed) {
        Random random = new Random(seed);
        StringBuilder b = new StringBuilder(size + 200).append("Graphics[{");
        while (b.length() < size) {
            switch (random.nextInt(4)) {
                case 0:
                    b.append(String.format(Locale.ROOT, "RGBColor[%.4f, %.4f, %.4f], ", random.nextDouble(), random.nextDouble(), random.nextDouble()));
                    break;
                case 1:
                    b.append(String.format(Locale.ROOT, "Disk[{%.5f, %.5f}, %.3f], ", random.nextDouble(), random.nextDouble(), random.nextDouble() / 10));
                    break;
                case 2:
                    b.append(String.format(Locale.ROOT, "Line[{{%.5f, %.5f}, {%.5f, %.5f}}], ", random.nextDouble(), random.nextDouble(),
                            random.nextDouble(), random.nextDouble()));
                    break;
                default:
                    b.append(String.format(Locale.ROOT, "Text[Style[\"x%d\", 12, Bold], {%.4f, %.4f}], ", random.nextInt(1000),
                            random.nextDouble(), random.nextDouble()));
            }
        }
        return b.substring(0, size);
    }
}
