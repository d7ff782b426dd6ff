import { useController, useFormContext, useWatch } from 'react-hook-form';
import { Field, inputClass } from '../../ui/field';
import { bulletinTitleMaxLength } from '@chat-site/contract';
import { titleLength, titleLengthProblem, type EditorValues } from './editor-form';
import { EndTimeFields, TimeField } from './end-time-fields';
import { LanguagePanes } from './language-panes';
import { RichText } from './rich-text';

/** The text the body starts from, and a key bumped when another text replaces what is typed
 * (a kept copy restored, a revision or the other side of a conflict taken). */
export interface BodyText {
  html: string;
  key: number;
}

/** The editor's fields, in the form of editor-screen.tsx (react-hook-form): title, body,
 * publication time, 置顶 and the end times. Errors come from the form's own (setError). */
export function EditorFields({ body, timeZone }: { body: BodyText; timeZone: string }) {
  const { register, formState, control } = useFormContext<EditorValues>();
  const { errors } = formState;
  const html = useController({ control, name: 'html' });
  const pinned = useWatch({ control, name: 'pinned' });
  const title = useWatch({ control, name: 'title' });
  // A title over the limit is said as it is typed or pasted, and the save refuses it: nothing is
  // cut without the operator seeing it.
  const titleError = errors.title?.message ?? titleLengthProblem(title);
  return (
    <>
      <Field
        id="bulletin-title"
        label="标题"
        hint={`${titleLength(title)}/${bulletinTitleMaxLength}`}
        error={titleError}
      >
        <input
          id="bulletin-title"
          {...register('title')}
          onKeyDown={(event) => {
            // Enter goes on to the body, as in a writing app; while an input method is
            // composing, Enter is its own (it confirms the characters).
            if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
            event.preventDefault();
            document.getElementById('bulletin-body')?.focus();
          }}
          className={inputClass}
          aria-invalid={titleError !== undefined}
          aria-describedby={titleError === undefined ? 'bulletin-title-hint' : 'bulletin-title-error'}
        />
      </Field>
      <div className="flex flex-col gap-1.5">
        <span id="bulletin-body-label" className="text-sm font-medium">
          正文
        </span>
        <RichText
          id="bulletin-body"
          initialHtml={body.html}
          resetKey={body.key}
          describedBy="bulletin-body-hint"
          onChange={html.field.onChange}
        />
        <p id="bulletin-body-hint" className="text-xs text-muted">
          可直接粘贴或拖入图片；从 Word
          或网页粘贴时保留标题、列表、加粗、链接和表格，其余格式会被去掉。选中图片后按回车或点“图片说明”，可填写说明文字或删除图片。
        </p>
      </div>
      <LanguagePanes resetKey={body.key} />
      <div className="grid gap-5 md:grid-cols-2">
        <TimeField
          id="bulletin-when"
          label="发布时间"
          hint={`服务器时间（${timeZone}）。留空则在点“发布”时立即发布。`}
          error={errors.when?.message}
          registration={register('when')}
        />
        <label className="flex min-h-10 items-center gap-3 self-start md:mt-7">
          <input type="checkbox" {...register('pinned')} className="size-5 accent-brand" />
          <span className="text-sm font-medium">置顶</span>
        </label>
      </div>
      <EndTimeFields
        register={register}
        pinned={pinned}
        timeZone={timeZone}
        errors={{ unpublish: errors.unpublishAt?.message, unpin: errors.unpinAt?.message }}
      />
    </>
  );
}
