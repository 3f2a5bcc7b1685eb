/* The masking article's LibraryLink kernels, mask6 and mask7, written for WSJava's benchmark.
 * Built by MaskingBenchmark.wl with CreateLibrary when a C compiler is available.
 * Both take (key ByteArray, key length, payload ByteArray, payload length) and return a new
 * ByteArray, as in the article. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "WolframLibrary.h"
#include "WolframNumericArrayLibrary.h"

DLLEXPORT mint WolframLibrary_getVersion(void) {
    return WolframLibraryVersion;
}

DLLEXPORT int WolframLibrary_initialize(WolframLibraryData libData) {
    return LIBRARY_NO_ERROR;
}

DLLEXPORT void WolframLibrary_uninitialize(WolframLibraryData libData) {
}

static uint8_t *bytes_of(WolframLibraryData libData, MArgument arg) {
    return (uint8_t *) libData->numericarrayLibraryFunctions->MNumericArray_getData(MArgument_getMNumericArray(arg));
}

/* mask6: a scratch buffer filled one byte at a time with i % keyLength, then copied into the result. */
DLLEXPORT int mask6(WolframLibraryData libData, mint argc, MArgument *args, MArgument res) {
    uint8_t *key = bytes_of(libData, args[0]);
    mint keyLength = MArgument_getInteger(args[1]);
    uint8_t *payload = bytes_of(libData, args[2]);
    mint length = MArgument_getInteger(args[3]);
    uint8_t *scratch = (uint8_t *) malloc(length > 0 ? (size_t) length : 1);
    for (mint i = 0; i < length; i++) {
        scratch[i] = payload[i] ^ key[i % keyLength];
    }
    MNumericArray result;
    libData->numericarrayLibraryFunctions->MNumericArray_new(MNumericArray_Type_UBit8, 1, &length, &result);
    memcpy(libData->numericarrayLibraryFunctions->MNumericArray_getData(result), scratch, (size_t) length);
    free(scratch);
    MArgument_setMNumericArray(res, result);
    return LIBRARY_NO_ERROR;
}

/* mask7: writes straight into the result, whole key-length blocks in a nested loop, then the tail. */
DLLEXPORT int mask7(WolframLibraryData libData, mint argc, MArgument *args, MArgument res) {
    uint8_t *key = bytes_of(libData, args[0]);
    mint keyLength = MArgument_getInteger(args[1]);
    uint8_t *payload = bytes_of(libData, args[2]);
    mint length = MArgument_getInteger(args[3]);
    MNumericArray result;
    libData->numericarrayLibraryFunctions->MNumericArray_new(MNumericArray_Type_UBit8, 1, &length, &result);
    uint8_t *out = (uint8_t *) libData->numericarrayLibraryFunctions->MNumericArray_getData(result);
    mint whole = length - length % keyLength;
    for (mint i = 0; i < whole; i += keyLength) {
        for (mint j = 0; j < keyLength; j++) {
            out[i + j] = payload[i + j] ^ key[j];
        }
    }
    for (mint i = whole; i < length; i++) {
        out[i] = payload[i] ^ key[i % keyLength];
    }
    MArgument_setMNumericArray(res, result);
    return LIBRARY_NO_ERROR;
}
