// A thin layer over libvips for Swift, which cannot call C functions that take `...`:
// every libvips call with options lives here, and nothing here decides policy (which
// formats are accepted, what sizes exist); the Swift module PhotoCodec does.
#include "photo_codec.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>

struct photo_codec_flag {
    atomic_int set;
};

photo_codec_flag *photo_codec_flag_new(void) {
    photo_codec_flag *flag = malloc(sizeof *flag);
    if (flag) atomic_init(&flag->set, 0);
    return flag;
}

void photo_codec_cancel(photo_codec_flag *flag) {
    if (flag) atomic_store(&flag->set, 1);
}

void photo_codec_flag_free(photo_codec_flag *flag) { free(flag); }

static int is_cancelled(photo_codec_flag *flag) { return flag && atomic_load(&flag->set); }

/// libvips' progress signal, sent as tiles are computed: a set flag kills the evaluation,
/// which then fails at its next tile.
static void on_eval(VipsImage *image, VipsProgress *progress, void *flag) {
    (void)progress;
    if (is_cancelled(flag)) vips_image_set_kill(image, TRUE);
}

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static int start_status = -1;

static void start(void) {
    start_status = VIPS_INIT("commons");
    if (start_status == 0) {
        // Inputs are borrowed buffers that end with each call: the operation cache must
        // never keep an image that points into one.
        vips_cache_set_max(0);
        // Callers run uploads in parallel, one per thread of their pool.
        vips_concurrency_set(1);
    }
}

int photo_codec_start(void) {
    pthread_once(&start_once, start);
    return start_status;
}

const char *photo_codec_loader(const void *input, size_t length) {
    if (photo_codec_start() != 0) return NULL;
    const char *loader = vips_foreign_find_load_buffer(input, length);
    if (!loader) vips_error_clear();
    return loader;
}

/// Copies `in` without any metadata field a saver could write: Exif (with GPS), XMP, IPTC,
/// the colour profile, the orientation, comments. Savers' own `strip` is not enough on its
/// own: libvips 8.14's WebP saver still writes the Exif and XMP it is given.
static int without_metadata(VipsImage *in, VipsImage **out) {
    if (vips_copy(in, out, NULL)) return -1;
    gchar **fields = vips_image_get_fields(*out);
    for (int i = 0; fields[i]; i++) {
        const char *name = fields[i];
        if (g_str_has_prefix(name, "exif-") || g_str_has_prefix(name, "xmp-") || g_str_has_prefix(name, "iptc-") ||
            g_str_has_prefix(name, "icc-") || g_str_has_prefix(name, "png-comment") || g_str_has_prefix(name, "heif-") ||
            g_str_has_prefix(name, "jpeg-") || g_str_has_prefix(name, "webp-") || strcmp(name, VIPS_META_ORIENTATION) == 0 ||
            strcmp(name, VIPS_META_PHOTOSHOP_NAME) == 0 || strcmp(name, VIPS_META_IMAGEDESCRIPTION) == 0) {
            vips_image_remove(*out, name);
        }
    }
    g_strfreev(fields);
    return 0;
}

/// Encodes `image` as `suffix` (".jpg", ".png" or ".webp") with every piece of metadata
/// stripped, at `quality` where the format has one.
static int save(VipsImage *image, const char *suffix, int quality, photo_codec_output *output) {
    void *data = NULL;
    size_t length = 0;
    int failed;
    if (strcmp(suffix, ".png") == 0) {
        failed = vips_pngsave_buffer(image, &data, &length, "strip", TRUE, NULL);
    } else if (strcmp(suffix, ".webp") == 0) {
        failed = vips_webpsave_buffer(image, &data, &length, "strip", TRUE, "Q", quality, NULL);
    } else {
        failed = vips_jpegsave_buffer(image, &data, &length, "strip", TRUE, "Q", quality, "optimize_coding", TRUE, NULL);
    }
    if (failed) return -1;
    output->data = data;
    output->length = length;
    output->width = vips_image_get_width(image);
    output->height = vips_image_get_height(image);
    return 0;
}

photo_codec_status photo_codec_encode(const void *input, size_t length, const char *suffix, int quality,
                                      const int *long_edges, int edge_count, long long max_pixels,
                                      photo_codec_flag *cancel, photo_codec_output *outputs) {
    if (photo_codec_start() != 0) return PHOTO_CODEC_ENCODE_FAILED;
    if (edge_count < 0 || edge_count > 8) return PHOTO_CODEC_ENCODE_FAILED;
    memset(outputs, 0, sizeof(photo_codec_output) * (size_t)(edge_count + 1));

    // Every image made below belongs to `scope` and is released with it.
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **)vips_object_local_array(scope, 5 + edge_count);
    photo_codec_status status = PHOTO_CODEC_OK;

    t[0] = vips_image_new_from_buffer(input, length, "", "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (!t[0]) {
        status = vips_foreign_find_load_buffer(input, length) ? PHOTO_CODEC_UNDECODABLE : PHOTO_CODEC_UNKNOWN_FORMAT;
        goto done;
    }
    if ((long long)vips_image_get_width(t[0]) * (long long)vips_image_get_height(t[0]) > max_pixels) {
        status = PHOTO_CODEC_TOO_MANY_PIXELS;
        goto done;
    }
    // Every pipeline below reads the decoded picture: its progress signals let a set flag stop it.
    if (cancel) {
        vips_image_set_progress(t[0], TRUE);
        g_signal_connect(t[0], "eval", G_CALLBACK(on_eval), cancel);
    }
    if (is_cancelled(cancel)) {
        status = PHOTO_CODEC_CANCELLED;
        goto done;
    }
    // Upright by the camera's orientation tag (the tag goes with the rest of the metadata).
    if (vips_autorot(t[0], &t[1], NULL)) {
        status = PHOTO_CODEC_UNDECODABLE;
        goto done;
    }
    VipsImage *upright = t[1];
    // Into sRGB by the embedded colour profile, since the profile is stripped on save.
    if (vips_image_get_typeof(upright, VIPS_META_ICC_NAME)) {
        if (vips_icc_transform(upright, &t[2], "srgb", "embedded", TRUE, NULL) == 0) {
            upright = t[2];
        } else {
            vips_error_clear();
        }
    }
    if (without_metadata(upright, &t[3])) {
        status = PHOTO_CODEC_ENCODE_FAILED;
        goto done;
    }
    upright = t[3];
    // Encoding the whole picture decodes all of it: a truncated or corrupt file fails here.
    if (save(upright, suffix, quality, &outputs[0])) {
        status = is_cancelled(cancel) ? PHOTO_CODEC_CANCELLED : PHOTO_CODEC_UNDECODABLE;
        goto done;
    }
    int width = vips_image_get_width(upright), height = vips_image_get_height(upright);
    int longest = width > height ? width : height;
    for (int i = 0; i < edge_count; i++) {
        if (is_cancelled(cancel)) {
            status = PHOTO_CODEC_CANCELLED;
            goto done;
        }
        VipsImage *variant = upright;
        if (long_edges[i] < longest) {
            if (vips_resize(upright, &t[4 + i], (double)long_edges[i] / (double)longest, NULL)) {
                status = PHOTO_CODEC_ENCODE_FAILED;
                goto done;
            }
            variant = t[4 + i];
        }
        if (save(variant, suffix, quality, &outputs[1 + i])) {
            status = is_cancelled(cancel) ? PHOTO_CODEC_CANCELLED : PHOTO_CODEC_ENCODE_FAILED;
            goto done;
        }
    }

done:
    // A killed evaluation leaves libvips' message behind; nothing went wrong.
    if (status == PHOTO_CODEC_CANCELLED) vips_error_clear();
    if (status != PHOTO_CODEC_OK) {
        for (int i = 0; i <= edge_count; i++) {
            g_free(outputs[i].data);
            outputs[i].data = NULL;
            outputs[i].length = 0;
        }
    }
    g_object_unref(scope);
    return status;
}

int photo_codec_sample(int width, int height, double noise, int red, int green, int blue, const char *suffix, int quality,
                       photo_codec_output *output) {
    if (photo_codec_start() != 0) return -1;
    memset(output, 0, sizeof *output);
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **)vips_object_local_array(scope, 8);
    // Each band: its colour at 60 % on the left edge, rising to 100 % on the right.
    double colour[3] = {red, green, blue}, slope[3], offset[3];
    for (int band = 0; band < 3; band++) {
        slope[band] = colour[band] * 0.4 / width;
        offset[band] = colour[band] * 0.6;
    }
    int failed = vips_xyz(&t[0], width, height, NULL)
        || vips_extract_band(t[0], &t[1], 0, NULL)
        || vips_linear(t[1], &t[2], slope, offset, 3, NULL)
        || vips_gaussnoise(&t[3], width, height, "mean", 0.0, "sigma", noise, NULL)
        || vips_add(t[2], t[3], &t[4], NULL)
        || vips_cast_uchar(t[4], &t[5], NULL)
        || vips_copy(t[5], &t[6], "interpretation", VIPS_INTERPRETATION_sRGB, NULL)
        || save(t[6], suffix, quality, output);
    g_object_unref(scope);
    return failed ? -1 : 0;
}

void photo_codec_free(void *data) { g_free(data); }

void photo_codec_last_error(char *buffer, size_t capacity) {
    if (capacity == 0) return;
    snprintf(buffer, capacity, "%s", vips_error_buffer());
    vips_error_clear();
}
