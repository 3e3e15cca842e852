// Checks a screenshot: png_check FILE [--min WxH] [--color R,G,B ...]
// Fails unless the image is at least WxH, is not blank (its luminance varies), and holds at
// least 40 pixels close to each given colour (the charts' bar colours: the chart was drawn).
// 40, not more: how tall a bar is depends on what was measured (on a loaded machine the previous
// lesson's bar was 67 pixels beside a step measured 19.97x slower, on a linear axis), and the
// chart draws a measured value at least 4 pixels tall (app/charts/chart.cpp): with 14 lessons
// in chapter 1 at scale 1 its bars are 26 pixels wide, so the shortest covers about 100.
#include <stb_image.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: png_check FILE [--min WxH] [--color R,G,B ...]\n");
        return 2;
    }
    int min_w = 1, min_h = 1;
    std::vector<std::vector<int>> colors;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--min")
            std::sscanf(argv[i + 1], "%dx%d", &min_w, &min_h);
        else if (flag == "--color") {
            int r, g, b;
            if (std::sscanf(argv[i + 1], "%d,%d,%d", &r, &g, &b) == 3) colors.push_back({r, g, b});
        }
    }
    int w = 0, h = 0, channels = 0;
    unsigned char* px = stbi_load(argv[1], &w, &h, &channels, 3);
    if (!px) {
        std::fprintf(stderr, "%s: cannot read as an image\n", argv[1]);
        return 1;
    }
    bool ok = true;
    std::printf("%s: %dx%d\n", argv[1], w, h);
    if (w < min_w || h < min_h) {
        std::printf("  too small: expected at least %dx%d\n", min_w, min_h);
        ok = false;
    }
    double sum = 0, sum2 = 0;
    const size_t n = size_t(w) * size_t(h);
    std::vector<size_t> hits(colors.size(), 0);
    for (size_t i = 0; i < n; ++i) {
        const unsigned char* p = px + 3 * i;
        const double y = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
        sum += y;
        sum2 += y * y;
        for (size_t c = 0; c < colors.size(); ++c)
            if (std::abs(p[0] - colors[c][0]) + std::abs(p[1] - colors[c][1]) +
                    std::abs(p[2] - colors[c][2]) <
                40)
                ++hits[c];
    }
    const double mean = sum / double(n),
                 stddev = std::sqrt(std::max(0.0, sum2 / double(n) - mean * mean));
    std::printf("  luminance mean %.1f, standard deviation %.1f\n", mean, stddev);
    if (stddev < 10) {
        std::printf("  blank: the image hardly varies\n");
        ok = false;
    }
    for (size_t c = 0; c < colors.size(); ++c) {
        std::printf("  %zu pixels near (%d, %d, %d)\n", hits[c], colors[c][0], colors[c][1],
                    colors[c][2]);
        if (hits[c] < 40) ok = false;
    }
    stbi_image_free(px);
    std::printf("  %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
